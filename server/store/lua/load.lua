-- KEYS: events, meta, snap.  A cold load in one round trip: the newest snapshot and the entries
-- from its own version on.  {-1} unknown game | {2, first kept} trimmed |
-- {0, snapshot JSON or "", v1, h1, e1, ...}.
if redis.call('EXISTS', KEYS[2]) == 0 then
  return {-1}
end
local snap = redis.call('GET', KEYS[3])
local want = 1
if snap then
  want = math.max(tonumber(string.match(snap, '^{"version":(%d+),')) or 1, 1)
else
  snap = ''
end
local entries = redis.call('XRANGE', KEYS[1], want .. '-0', '+')
local cut = trimmed(KEYS[1], entries, want)
if cut then return cut end
local reply = {0, snap}
for _, entry in ipairs(entries) do
  reply[#reply + 1] = tonumber(string.match(entry[1], '^(%d+)'))
  reply[#reply + 1] = hash_of(entry[2])
  reply[#reply + 1] = entry[2][2]
end
return reply
