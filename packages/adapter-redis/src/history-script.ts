/**
 * The one Lua script behind every history write, so each write, its window trim and the TTL of
 * every key of the session happen atomically (Redis runs a script without interleaving other
 * commands). Lua 5.1 as embedded in Redis ≥ 7.0 (cjson available).
 *
 * KEYS[1] messages list, KEYS[2] meta hash.
 * ARGV[1] mode: "append" (push + window + TTL), "trim" (window + TTL), "raw" (push + TTL, no window)
 * ARGV[2] ttl ms (0 = none)   ARGV[3] "1" = refresh TTL on every write (sliding)
 * ARGV[4] maxMessages (0 = none)   ARGV[5] maxChars (0 = none)   ARGV[6] payload version
 * ARGV[7] N = number of payloads; ARGV[8 .. 7+N] their content lengths in code points;
 * ARGV[8+N .. 7+2N] the payloads.
 * Returns the number of messages the window removed.
 *
 * Window: keep the newest min(total, maxMessages) messages, then — with maxChars — only the newest
 * of those whose contents sum to ≤ maxChars code points, the newest message always kept. Existing
 * payloads are measured with cjson (v2 `content`, v1 `text`; code points = UTF-8 bytes that are not
 * continuation bytes). Everything is decided BEFORE the first write, so a payload that cannot be
 * measured fails the call with `PAYLOAD_UNSUPPORTED …` and nothing written.
 * TTL: with refresh, every key of the session gets PEXPIRE ttl on each write; without, a key that
 * has no TTL gets the session's remaining TTL (or ttl for a new session), so no key is ever left
 * without one.
 */
export const HISTORY_SCRIPT = `
local msgs, meta = KEYS[1], KEYS[2]
local mode = ARGV[1]
local ttl = tonumber(ARGV[2])
local refresh = ARGV[3] == '1'
local maxMsgs = tonumber(ARGV[4])
local maxChars = tonumber(ARGV[5])
local n = tonumber(ARGV[7])

local function measure(payload)
  local ok, obj = pcall(cjson.decode, payload)
  if not ok or type(obj) ~= 'table' then return nil end
  local c = obj['content']
  if obj['v'] == 1 then c = obj['text'] end
  if type(c) ~= 'string' then return nil end
  local _, count = string.gsub(c, '[^\\128-\\191]', '')
  return count
end

local len = redis.call('LLEN', msgs)
local total = len + n
local drop = 0
if mode ~= 'raw' then
  local keepMax = total
  if maxMsgs > 0 and maxMsgs < keepMax then keepMax = maxMsgs end
  local keep = keepMax
  if maxChars > 0 and keepMax > 0 then
    keep = 0
    local sum = 0
    local stop = false
    for i = n, 1, -1 do
      if keep >= keepMax then break end
      local c = tonumber(ARGV[7 + i])
      if keep > 0 and sum + c > maxChars then stop = true break end
      sum = sum + c
      keep = keep + 1
    end
    if not stop and keep < keepMax and len > 0 then
      local want = keepMax - keep
      local items = redis.call('LRANGE', msgs, -want, -1)
      for i = #items, 1, -1 do
        local c = measure(items[i])
        if c == nil then
          return redis.error_reply('PAYLOAD_UNSUPPORTED ' .. msgs .. '[' .. (len - #items + i - 1) .. ']: cannot measure this payload for the character window (not a v1/v2 history payload)')
        end
        if keep > 0 and sum + c > maxChars then break end
        sum = sum + c
        keep = keep + 1
      end
    end
  end
  drop = total - keep
end

local keepTtl = -1
if ttl > 0 and not refresh then
  local a = redis.call('PTTL', meta)
  local b = redis.call('PTTL', msgs)
  if a > 0 then keepTtl = a elseif b > 0 then keepTtl = b end
end
if mode ~= 'trim' then
  redis.call('HSETNX', meta, 'format', 'memory-matrix/chat-history')
  if mode == 'append' then redis.call('HSET', meta, 'v', ARGV[6]) end
  for i = 1, n do redis.call('RPUSH', msgs, ARGV[7 + n + i]) end
end
if drop > 0 then redis.call('LTRIM', msgs, drop, -1) end
if ttl > 0 and (mode ~= 'trim' or drop > 0) then
  for _, k in ipairs({msgs, meta}) do
    if redis.call('EXISTS', k) == 1 and (refresh or redis.call('PTTL', k) < 0) then
      if keepTtl > 0 then redis.call('PEXPIRE', k, keepTtl) else redis.call('PEXPIRE', k, ttl) end
    end
  end
end
return drop
`;
