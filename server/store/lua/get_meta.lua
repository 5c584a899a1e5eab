-- KEYS: meta, claimed.  nil for an unknown game, else {meta JSON, {claimed seats}}.
local meta = redis.call('GET', KEYS[1])
if not meta then
  return false
end
return {meta, redis.call('LRANGE', KEYS[2], 0, -1)}
