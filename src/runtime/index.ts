/** kubeforge/runtime — filled by its issue; see ARCHITECTURE.md. */
export {};
