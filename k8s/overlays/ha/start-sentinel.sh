#!/bin/sh
# The Sentinel of a pod of the HA set, monitoring the master "tablero" by hostname (quorum 2,
# down after 5 s), over TLS only (port 0, tls-port 26379; tls-replication: it speaks TLS to Redis). Its config file is writable (the Sentinel rewrites it) in an emptyDir.
set -eu
self="$(hostname).redis"
master=""
for s in redis-0.redis redis-1.redis redis-2.redis; do
  master="$(redis-cli --tls --cacert /tls/ca.crt -h "$s" -p 26379 --raw sentinel get-master-addr-by-name tablero 2>/dev/null | head -n 1)" || true
  [ -n "$master" ] && break
done
[ -n "$master" ] || master="redis-0.redis"
cat > /sentinel/sentinel.conf <<CONF
port 0
tls-port 26379
tls-cert-file /tls/tls.crt
tls-key-file /tls/tls.key
tls-ca-cert-file /tls/ca.crt
tls-auth-clients no
tls-replication yes
sentinel resolve-hostnames yes
sentinel announce-hostnames yes
sentinel announce-ip $self
sentinel monitor tablero $master 6379 2
sentinel auth-pass tablero $REDIS_PASSWORD
sentinel down-after-milliseconds tablero 5000
sentinel failover-timeout tablero 60000
sentinel parallel-syncs tablero 1
CONF
exec redis-server /sentinel/sentinel.conf --sentinel
