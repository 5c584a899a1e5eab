-- KEYS: the GameKeys.  ARGV: abandoned TTL ms, the claim's id ("" = none), the seats, in order of
-- preference. A claim with an id is kept as "<seat>:<id>" (a seat token then names it); a claim
-- id already kept gets its seat back (a retried join: its claim id comes from its requestId).
-- Returns {1, seat} | {0, 0} all taken | {-1, 0} unknown game.
if redis.call('EXISTS', KEYS[2]) == 0 then
  return {-1, 0}
end
local taken = {}
for _, entry in ipairs(redis.call('LRANGE', KEYS[3], 0, -1)) do
  local seat, id = string.match(entry, '^(%d+):?(.*)$')
  if ARGV[2] ~= '' and id == ARGV[2] then
    return {1, tonumber(seat)}
  end
  taken[seat] = true
end
for i = 3, #ARGV do
  if not taken[ARGV[i]] then
    local entry = ARGV[i]
    if ARGV[2] ~= '' then entry = entry .. ':' .. ARGV[2] end
    redis.call('RPUSH', KEYS[3], entry)
    local ttl = ttl_of(KEYS, ARGV[1])
    if ttl > 0 then expire_all(KEYS, ttl) end
    return {1, tonumber(ARGV[i])}
  end
end
return {0, 0}
