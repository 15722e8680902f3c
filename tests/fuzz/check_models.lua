-- tests/fuzz/check_models.lua: generated models of coupled arrays under
-- lied.check (tests/fuzz/coupled_gen.lua, lua/lied/check.lua), from a PRNG:
--   lied tests/fuzz/check_models.lua [--seconds S | --count N] [--seed K] [--maxn N]
--                                     [--threads T]   (the fast runs' threads, default 2)
--                                     [--trace 1]     (each seed on stderr before its runs:
--                                                      an assertion's abort names its model)
-- Model j draws its bytes from math.randomseed(K + j), so a model is
-- reproduced by its seed (printed with every difference and failure).
-- Prints one line per model with a difference or an error, then a summary:
-- models checked, the fast paths the fast runs took (how many models took
-- each), how many took none; exit status 1 when any model's runs differ.
local lied = require "lied"
local gen = dofile((os.getenv("LIED_SRC") or ".") .. "/tests/fuzz/coupled_gen.lua")

local secs, count, seed, maxn, threads, trace = nil, nil, 1, 600, 2, false
local a = arg or {}
local i = 1
while i <= #a do
  local k, v = a[i], tonumber(a[i + 1])
  if k == "--seconds" then secs = v elseif k == "--count" then count = v
  elseif k == "--seed" then seed = v elseif k == "--maxn" then maxn = v
  elseif k == "--threads" then threads = v
  elseif k == "--trace" then trace = v == 1
  else error("check_models: unknown argument " .. tostring(k), 0) end
  i = i + 2
end
if not secs and not count then count = 20 end

local t0, n, bad, errors, none = lied.core.clock(), 0, 0, 0, 0
local paths = {}
local j = 0
while (not count or j < count) and (not secs or lied.core.clock() - t0 < secs) do
  j = j + 1
  math.randomseed(seed + j)
  local model, run, what = gen(function() return math.random(0, 255) end, maxn)
  run.threads = threads
  if trace then io.stderr:write(string.format("seed %d: %s\n", seed + j, what)) end
  local ok, report = pcall(lied.check, model, run)
  if ok and report.interrupted then
    print(string.format("seed %d: interrupted", seed + j))
    break
  elseif not ok then
    errors = errors + 1
    print(string.format("seed %d: %s: error: %s", seed + j, what, tostring(report)))
  else
    n = n + 1
    local p = report.runs[2].paths
    if #p == 0 then none = none + 1 end
    for _, name in ipairs(p) do paths[name] = (paths[name] or 0) + 1 end
    if not report.ok then
      bad = bad + 1
      print(string.format("seed %d: %s: DIFFERS\n%s", seed + j, what, report.text))
    end
  end
end
local names = {}
for k, v in pairs(paths) do names[#names + 1] = string.format("%s %d", k, v) end
table.sort(names)
print(string.format("check_models: %d models checked in %.0f s (seeds %d..%d), %d differ, %d did not build or run; " ..
  "fast paths taken: %s; %d took none", n, lied.core.clock() - t0, seed + 1, seed + j, bad, errors,
  table.concat(names, ", "), none))
os.exit(bad == 0 and 0 or 1)
