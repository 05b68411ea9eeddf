#!/bin/sh
# The edge's entry point (compose.yaml, deploy/k8s/edge.yaml): haproxy with kb's frontend and the DNS backend,
# TLS on when a certificate is mounted at KB_EDGE_TLS_CERT_FILE (haproxy.cfg says what TLS changes).
set -eu
config="${KB_EDGE_CONFIG_DIR:-/usr/local/etc/haproxy}"
cert="${KB_EDGE_TLS_CERT_FILE:-/usr/local/etc/haproxy-tls/edge.pem}"
if [ -f "$cert" ]; then
  export KB_EDGE_TLS_CERT="$cert"
  echo "kb edge: TLS on ${KB_EDGE_TLS_BIND} with $cert; plain HTTP redirects to https" >&2
else
  unset KB_EDGE_TLS_CERT
  echo "kb edge: no certificate at $cert, plain HTTP only" >&2
fi
exec haproxy -f "$config/haproxy.cfg" -f "$config/backend-dns.cfg" "$@"
