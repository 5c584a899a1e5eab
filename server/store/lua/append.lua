-- KEYS: the GameKeys (events, meta, claimed, req, snap, snaps, lobby).
-- ARGV: expected version, "1"/"0" has request id ("2": has one, and a duplicate writes its record
-- again for the WAIT that follows; after the digit, the request's fingerprint, recorded beside
-- its version as field "#fp:<request id>"), request id, expected hash ("-" = none),
-- tail limit, notification channel ("" = none), abandoned TTL ms (0 = none), then the events' JSON.
-- Returns {0, version, hash} appended | {1} unknown game | {2, version, fingerprint} duplicate request |
-- {3, actual, head hash[, v1, h1, e1, v2, ...]} conflict (with the tail when asked and short) |
-- {4, actual, head hash} history rewritten.
-- The expected version's hash is the head's when they are the same entry (the common case):
-- read only when the head has moved on.
-- An append's notification carries its entries when their events' JSON totals at most this
-- many bytes: "<first version> <hash before it>" then "<hash> <event JSON>" per entry, one a
-- line (event JSON has no raw newline). A bigger append notifies its new version only.
-- (server/store/redis.py reads the number from here: PUSH_EVENTS_MAX.)
local PUSH_EVENTS_MAX = 16384
if redis.call('EXISTS', KEYS[2]) == 0 then
  return {1}
end
local mode, fp = string.sub(ARGV[2], 1, 1), string.sub(ARGV[2], 2)
if mode ~= '0' then
  local seen = redis.call('HGET', KEYS[4], ARGV[3])
  if seen then
    -- '2' (replicated acknowledgement): write the record again, so that the WAIT after this
    -- script covers the replication stream up to the first attempt's write
    if mode == '2' then redis.call('HSET', KEYS[4], ARGV[3], seen) end
    return {2, tonumber(seen), redis.call('HGET', KEYS[4], '#fp:' .. ARGV[3]) or ''}
  end
end
local v, h = head(KEYS[1])
local expected = tonumber(ARGV[1])
if ARGV[4] ~= '-' then
  if v < expected then
    return {4, v, h}
  end
  local at = h
  if v ~= expected then at = hash_at(KEYS[1], expected) end
  if at and at ~= '' and at ~= ARGV[4] then
    return {4, v, h}
  end
end
if v ~= expected then
  local reply = {3, v, h}
  local limit = tonumber(ARGV[5])
  if v > expected and v - expected <= limit then
    local entries = redis.call('XRANGE', KEYS[1], (expected + 1) .. '-0', '+')
    if #entries == v - expected then
      for _, entry in ipairs(entries) do
        reply[#reply + 1] = tonumber(string.match(entry[1], '^(%d+)'))
        reply[#reply + 1] = hash_of(entry[2])
        reply[#reply + 1] = entry[2][2]
      end
    end
  end
  return reply
end
local push = {(v + 1) .. ' ' .. h}
local size = 0
for i = 8, #ARGV do
  v = v + 1
  h = chain(h, ARGV[i])
  redis.call('XADD', KEYS[1], v .. '-0', 'e', ARGV[i], 'h', h)
  push[#push + 1] = h .. ' ' .. ARGV[i]
  size = size + #ARGV[i]
end
if mode ~= '0' then
  redis.call('HSET', KEYS[4], ARGV[3], v)
  if fp ~= '' then redis.call('HSET', KEYS[4], '#fp:' .. ARGV[3], fp) end
end
local ttl = ttl_of(KEYS, ARGV[7])
if ttl > 0 then expire_all(KEYS, ttl) end
if #ARGV >= 8 and ARGV[6] ~= '' then
  if size <= PUSH_EVENTS_MAX then
    redis.call('SPUBLISH', ARGV[6], table.concat(push, string.char(10)))
  else
    redis.call('SPUBLISH', ARGV[6], v)
  end
end
return {0, v, h}
