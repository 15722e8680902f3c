-- Generated models of coupled arrays (tests/fuzz/coupled_gen.lua: lied.each
-- to copy i+1 and i+2, periodic chains, per-copy values, array ends of every
-- kind, nodes every copy is wired to; thermal, mechanical and signal chains,
-- water pipes) under lied.check: 40 models from fixed
-- seeds, each built and run along its fast paths and the plain ones, must
-- give the same bits, and together they must take skewed evaluation, waves,
-- lanes and threads. tests/fuzz/check_models.lua runs the generator for as
-- long as one likes (docs/robustness.md, "Fuzzing").
local lied = require "lied"
local T = require "tests.testing"
local gen = dofile((os.getenv("LIED_SRC") or ".") .. "/tests/fuzz/coupled_gen.lua")

local taken = {}
for seed = 1, 40 do
  math.randomseed(7000 + seed)
  local model, run, what = gen(function() return math.random(0, 255) end, 130)
  run.threads = 2
  local ok, report = pcall(lied.check, model, run)
  T.check(ok, "seed " .. (7000 + seed) .. " (" .. what .. ") builds and runs: " .. tostring(report))
  if ok then
    T.check(report.ok, "seed " .. (7000 + seed) .. " (" .. what .. "):\n" .. report.text)
    for _, p in ipairs(report.runs[2].paths) do taken[p] = (taken[p] or 0) + 1 end
  end
end
for _, p in ipairs { "skew", "waves", "lanes", "threads" } do
  T.check((taken[p] or 0) > 0, "some generated model took " .. p)
end
T.done()
