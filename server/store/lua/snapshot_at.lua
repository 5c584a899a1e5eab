-- KEYS: snap, snaps.  ARGV: a version. The newest snapshot at or before it (its JSON), or false.
local at = tonumber(ARGV[1])
local newest = redis.call('GET', KEYS[1])
if newest then
  local v = tonumber(string.match(newest, '^{"version":(%d+),'))
  if v and v <= at then return newest end
end
local best = nil
for _, f in ipairs(redis.call('HKEYS', KEYS[2])) do
  local v = tonumber(f)
  if v <= at and (best == nil or v > best) then best = v end
end
if best == nil then return false end
return redis.call('HGET', KEYS[2], tostring(best))
