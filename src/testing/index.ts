/** kubeforge/testing — filled by its issue; see ARCHITECTURE.md. */
export {};
