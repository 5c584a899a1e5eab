-- KEYS: events, meta, snap.  Trims the events the kept snapshot covers (keeping the snapshot's own
-- entry, so the head stays). Returns the first version kept, -1 for an unknown game.
if redis.call('EXISTS', KEYS[2]) == 0 then
  return -1
end
local kept = redis.call('GET', KEYS[3])
if kept then
  local s = tonumber(string.match(kept, '^{"version":(%d+),'))
  local v = head(KEYS[1])
  local upto = math.min(s, v)
  if upto > 0 then redis.call('XTRIM', KEYS[1], 'MINID', upto .. '-0') end
end
return first_kept(KEYS[1]) or 0
