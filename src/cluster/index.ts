/** kubeforge/cluster — filled by its issue; see ARCHITECTURE.md. */
export {};
