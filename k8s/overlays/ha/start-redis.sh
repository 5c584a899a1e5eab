#!/bin/sh
# redis-server of a pod of the HA set: a replica of the master the Sentinels name, or (a fresh
# set, no Sentinel knows a master yet) redis-0 as the master. Flags come as arguments.
set -eu
self="$(hostname).redis"
master=""
for s in redis-0.redis redis-1.redis redis-2.redis; do
  master="$(redis-cli --tls --cacert /tls/ca.crt -h "$s" -p 26379 --raw sentinel get-master-addr-by-name tablero 2>/dev/null | head -n 1)" || true
  [ -n "$master" ] && break
done
if [ -z "$master" ]; then
  if [ "$(hostname)" = redis-0 ]; then master="$self"; else master="redis-0.redis"; fi
fi
# The password goes into a file, not onto the command line (ps would show it).
{
  echo "requirepass $REDIS_PASSWORD"
  echo "masterauth $REDIS_PASSWORD"
  echo "replica-announce-ip $self"
  # TLS only (issue 36): no plaintext port; clients, replication and the Sentinels all use TLS,
  # with the certificate of the Secret redis-tls (docs/operations.md, "Redis over TLS").
  echo "port 0"
  echo "tls-port 6379"
  echo "tls-cert-file /tls/tls.crt"
  echo "tls-key-file /tls/tls.key"
  echo "tls-ca-cert-file /tls/ca.crt"
  echo "tls-auth-clients no"
  echo "tls-replication yes"
  if [ "$master" != "$self" ]; then echo "replicaof $master 6379"; fi
} > /conf/redis.conf
exec redis-server /conf/redis.conf "$@"
