/** Eight short texts in three topics (billing, Kubernetes, leave): the embedder tests' corpus. */
export const CORPUS = [
  "Refund policy: customers can request a refund within 30 days of purchase. Refunds go back to the original payment card.",
  "Billing disputes and chargebacks: when a card payment looks wrong, open a billing ticket before asking for a refund.",
  "Invoices and receipts: download the invoice for every purchase from the billing page; payment receipts are emailed.",
  "Deploying to Kubernetes: build the container image, push it to the registry, then kubectl apply the deployment manifest.",
  "Rolling back a Kubernetes deployment: kubectl rollout undo restores the previous replica set when pods crash.",
  "Scaling pods: the horizontal autoscaler adds replicas to a Kubernetes deployment when container CPU usage rises.",
  "Vacation policy: employees accrue paid time off every month and request leave from their manager.",
  "Parental leave: employees receive sixteen weeks of paid leave after the birth or adoption of a child.",
];
