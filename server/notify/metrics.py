"""Prometheus metrics of the notifications (prefixed tablero_notify_)."""

from prometheus_client import Counter, Gauge

DERIVED = Counter("tablero_notify_events", "Notification events derived from committed game events")
DELIVERIES = Counter("tablero_notify_deliveries", "Delivery attempts, by target (webhook endpoint id, push, "
                     "inbox) and result (ok, failed)", ["target", "result"])
RETRIES = Counter("tablero_notify_retries", "Deliveries rescheduled after a failed attempt, by target", ["target"])
DEAD = Counter("tablero_notify_dead_letters", "Deliveries given up (moved to the dead-letter list)", ["target"])
DEPTH = Gauge("tablero_notify_queue_depth", "Deliveries queued, by target", ["target"],
              multiprocess_mode="livemax")
OLDEST = Gauge("tablero_notify_oldest_pending_seconds", "Age of the oldest due delivery's event, by target",
               ["target"], multiprocess_mode="livemax")
PUSH_SKIPPED = Counter("tablero_notify_push_skipped", "Web Push messages not sent: the seat watches live")
PUSH_GONE = Counter("tablero_notify_push_gone", "Web Push subscriptions removed (the push service said 404/410)")
