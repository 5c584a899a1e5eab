-- KEYS: events, meta.  ARGV: first version wanted, count ("" = all), "1" for numbered entries.
-- Returns {-1} unknown game | {2, first kept} trimmed | {0, JSON array text} | {0, v1, h1, e1, ...}.
-- A single JSON-array bulk reply is far cheaper for the client to parse than XRANGE's nested arrays.
if redis.call('EXISTS', KEYS[2]) == 0 then
  return {-1}
end
local want = tonumber(ARGV[1])
local entries
if ARGV[2] == '' then
  entries = redis.call('XRANGE', KEYS[1], want .. '-0', '+')
else
  entries = redis.call('XRANGE', KEYS[1], want .. '-0', '+', 'COUNT', ARGV[2])
end
local cut = trimmed(KEYS[1], entries, want)
if cut then return cut end
if ARGV[3] == '1' then
  local reply = {0}
  for _, entry in ipairs(entries) do
    reply[#reply + 1] = tonumber(string.match(entry[1], '^(%d+)'))
    reply[#reply + 1] = hash_of(entry[2])
    reply[#reply + 1] = entry[2][2]
  end
  return reply
end
local events = {}
for i, entry in ipairs(entries) do
  events[i] = entry[2][2]
end
return {0, '[' .. table.concat(events, ',') .. ']'}
