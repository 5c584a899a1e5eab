-- KEYS: the GameKeys (events, meta, claimed, req, snap, snaps, lobby).
-- ARGV: "1" when this is a retry, meta JSON, number of pre-claimed seats, the seats, TTL ms
-- (0 = none), then the events' JSON.
-- Returns -1 when the game exists, else {version, head hash}. A retry that finds the game with
-- exactly its own meta text (which holds a creation time and a fresh id) learns that its first
-- attempt landed and gets the head instead of -1.
if redis.call('EXISTS', KEYS[2]) == 1 or redis.call('EXISTS', KEYS[1]) == 1 then
  if ARGV[1] == '1' and redis.call('GET', KEYS[2]) == ARGV[2] then
    local v, h = head(KEYS[1])
    return {v, h}
  end
  return -1
end
redis.call('SET', KEYS[2], ARGV[2])
local nclaimed = tonumber(ARGV[3])
for i = 4, 3 + nclaimed do
  redis.call('RPUSH', KEYS[3], ARGV[i])
end
local ttl = tonumber(ARGV[4 + nclaimed])
local v, h = 0, ''
for i = 5 + nclaimed, #ARGV do
  v = v + 1
  h = chain(h, ARGV[i])
  redis.call('XADD', KEYS[1], v .. '-0', 'e', ARGV[i], 'h', h)
end
if ttl > 0 then expire_all(KEYS, ttl) end
return {v, h}
