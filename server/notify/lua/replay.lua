-- Dead letters back into their lanes (RedisQueue.replay), at the end: they are sent again with
-- their webhook-id. A dead record is JSON {target, lane, raw, item: {event: {id}}}.
-- KEYS[1] the queue's prefix `tablero:notify:{n}:`.
-- ARGV: now (us: a lane that was empty is due then), event id ('*' = every dead letter).
-- Returns how many were put back; the others stay dead, in their order.
local dead = redis.call('LRANGE', KEYS[1] .. 'dead', 0, -1)
local kept, n = {}, 0
for _, raw in ipairs(dead) do
  local rec = cjson.decode(raw)
  if ARGV[2] == '*' or rec['item']['event']['id'] == ARGV[2] then
    local target, lane = rec['target'], rec['lane']
    local len = redis.call('RPUSH', KEYS[1] .. 'lane:' .. target .. '|' .. lane, rec['raw'])
    redis.call('HINCRBY', KEYS[1] .. 'depth', target, 1)
    if len == 1 then redis.call('ZADD', KEYS[1] .. 'due:' .. target, ARGV[1], lane) end
    n = n + 1
  else
    table.insert(kept, raw)
  end
end
redis.call('DEL', KEYS[1] .. 'dead')
if #kept > 0 then redis.call('RPUSH', KEYS[1] .. 'dead', unpack(kept)) end
return n
