-- KEYS: the GameKeys.  ARGV: version, the snapshot JSON (which starts with
-- {"version":<n>,), "1" to trim the events the snapshot covers.
-- Returns 1 kept | 0 not newer than the one kept | -1 unknown game.
if redis.call('EXISTS', KEYS[2]) == 0 then
  return -1
end
local kept = redis.call('GET', KEYS[5])
if kept then
  local v = tonumber(string.match(kept, '^{"version":(%d+),'))
  if v and v >= tonumber(ARGV[1]) then
    return 0
  end
end
redis.call('SET', KEYS[5], ARGV[2])
redis.call('HSET', KEYS[6], ARGV[1], ARGV[2])
local keep = tonumber(ARGV[4])
if redis.call('HLEN', KEYS[6]) > keep then
  -- thin: drop the interior snapshot whose removal leaves the smallest gap (base.thinned)
  local vs = {}
  for _, f in ipairs(redis.call('HKEYS', KEYS[6])) do vs[#vs + 1] = tonumber(f) end
  table.sort(vs)
  while #vs > math.max(keep, 2) do
    local best, gap = 2, vs[3] - vs[1]
    for j = 3, #vs - 1 do
      if vs[j + 1] - vs[j - 1] < gap then best, gap = j, vs[j + 1] - vs[j - 1] end
    end
    redis.call('HDEL', KEYS[6], tostring(vs[best]))
    table.remove(vs, best)
  end
end
local ttl = ttl_of(KEYS, '0')
if ttl > 0 then
  redis.call('PEXPIRE', KEYS[5], ttl)
  redis.call('PEXPIRE', KEYS[6], ttl)
end
if ARGV[3] == '1' then
  local v = head(KEYS[1])
  local upto = math.min(tonumber(ARGV[1]), v)
  if upto > 0 then redis.call('XTRIM', KEYS[1], 'MINID', upto .. '-0') end
end
return 1
