// The Widget of testdata/widgets-crd.yaml as API types, so apply.cluster.test.ts applies generated configurations.
import type { int32, ObjectMeta } from 'kubeforge/api';

export interface WidgetSpec {
  size?: int32;
  color?: string;
}

export interface WidgetStatus {
  observedSize?: int32;
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
export interface Widget {
  apiVersion: 'example.com/v1';
  kind: 'Widget';
  metadata?: ObjectMeta;
  spec?: WidgetSpec;
  status?: WidgetStatus;
}
