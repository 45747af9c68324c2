// Package v1 is the Widget API of the client's cluster tests (testdata/widgets-crd.yaml), with apply configurations.
// +groupName=example.com
// +kubebuilder:ac:generate=true

export const groupVersion = { group: 'example.com', version: 'v1' } as const;
