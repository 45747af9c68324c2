#!/bin/bash
set -x

# kubectl, for the local cluster (make run-local, make setup-test-e2e) and real ones.
curl -Lo ./kubectl "https://dl.k8s.io/release/v1.32.0/bin/linux/$(dpkg --print-architecture)/kubectl"
chmod +x ./kubectl
if [ "$(id -u)" = 0 ]; then mv ./kubectl /usr/local/bin/kubectl; else sudo mv ./kubectl /usr/local/bin/kubectl; fi

# The project's dependencies, kubeforge's CLI among them (npx kubeforge …, make manifests).
npm install

kubectl version --client
npx --no-install kubeforge --version || true
