-- KEYS: meta.  Writes the game's metadata again, unchanged (its TTL kept), for a WAIT to follow: a
-- write of this connection that comes after every earlier write of the game in the replication
-- stream. Returns 1, or 0 for an unknown game.
local meta = redis.call('GET', KEYS[1])
if not meta then return 0 end
redis.call('SET', KEYS[1], meta, 'KEEPTTL')
return 1
