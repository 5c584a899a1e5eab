-- KEYS: req.  ARGV: a request id. Writes its record again (when it exists), for a WAIT to follow:
-- the version it produced, or false.
local seen = redis.call('HGET', KEYS[1], ARGV[1])
if not seen then return false end
redis.call('HSET', KEYS[1], ARGV[1], seen)
return tonumber(seen)
