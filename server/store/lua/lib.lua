-- Helpers every script starts with. head(): (version, hash) of the last entry; hash_at(v): the
-- hash of entry v ("" for v = 0 or an entry without a hash), nil when it is not kept.
local function hash_of(fields)
  for i = 1, #fields, 2 do
    if fields[i] == 'h' then return fields[i + 1] end
  end
  return ''
end
local function head(key)
  local last = redis.call('XREVRANGE', key, '+', '-', 'COUNT', 1)
  if #last == 0 then return 0, '' end
  return tonumber(string.match(last[1][1], '^(%d+)')), hash_of(last[1][2])
end
local function hash_at(key, v)
  if v == 0 then return '' end
  local e = redis.call('XRANGE', key, v .. '-0', v .. '-0')
  if #e == 0 then return nil end
  return hash_of(e[1][2])
end
local function first_kept(key)
  local f = redis.call('XRANGE', key, '-', '+', 'COUNT', 1)
  if #f == 0 then return nil end
  return tonumber(string.match(f[1][1], '^(%d+)'))
end
-- whether a range read from version `want` on lost its start to a trim: {2, first kept} if it did.
-- Versions are contiguous, so a range that starts at `want` lost nothing; a range past the head
-- is empty, and nothing is trimmed past the head.
local function trimmed(key, entries, want)
  if #entries > 0 and tonumber(string.match(entries[1][1], '^(%d+)')) ~= want then
    local first = first_kept(key)
    if first and first > want then return {2, first} end
  end
  return nil
end
local function chain(prev, e)
  return string.sub(redis.sha1hex(prev .. e), 1, 16)
end
local function expire_all(keys, ms)
  for i = 1, #keys do redis.call('PEXPIRE', keys[i], ms) end
end
-- the TTL the game's keys must carry: the abandoned-game TTL given, else the meta's own (finished)
local function ttl_of(keys, given)
  local ttl = tonumber(given)
  if ttl > 0 then return ttl end
  local m = redis.call('PTTL', keys[2])
  if m > 0 then return m end
  return 0
end
