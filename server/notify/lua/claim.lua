-- Claim a target's due lanes (RedisQueue.claim): each due lane's score moves to token base + i
-- (its i-th place in this claim), the claim's token; a due lane found empty leaves the due set.
-- KEYS[1] the queue's prefix `tablero:notify:{n}:`.
-- ARGV: target, now (us), token base (now + lease, us), at most this many lanes.
-- Returns a flat list, 4 per claimed lane: lane, i, its head item, its last attempt JSON ("" none).
local due = KEYS[1] .. 'due:' .. ARGV[1]
local lanes = redis.call('ZRANGEBYSCORE', due, '-inf', ARGV[2], 'LIMIT', 0, tonumber(ARGV[4]))
local out = {}
for i, lane in ipairs(lanes) do
  local key = KEYS[1] .. 'lane:' .. ARGV[1] .. '|' .. lane
  local head = redis.call('LINDEX', key, 0)
  if head then
    local token = tonumber(ARGV[3]) + i
    redis.call('ZADD', due, token, lane)
    local att = redis.call('HGET', KEYS[1] .. 'att', ARGV[1] .. '|' .. lane)
    table.insert(out, lane); table.insert(out, i); table.insert(out, head)
    table.insert(out, att or '')
  else
    redis.call('ZREM', due, lane)
  end
end
return out
