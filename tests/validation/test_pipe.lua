-- examples/pipe.lua (a water pipe of n cells: PressureDrop + Volume each)
-- against independent references:
-- 1. bench/flat_pipe (the benchmark's flat reference: the same laws written
--    out by hand, RK4) with --vary (cells at different temperatures, flows in
--    both directions) against lied with the same start values given per copy,
--    n = 3 and n = 10: every state at every step of 1 s (dt 1e-3) to 1e-9;
--    n = 300 (evaluated skewed) and n = 1000 (also scheduled from a window)
--    over 0.1 s
--    relative to the state's size, so the benchmark's ratios compare the same
--    equations;
-- 2. the steady flow of the default pipe (n = 16) after 200 s against the
--    flow that makes the n + 1 drops' pressure losses add up to p_in - p_out
--    (found by bisection here, each drop's density at its upstream pressure),
--    and the hot front reaching the cells in order;
-- 3. flat_pipe's errors on bad command lines.
local T = require "tests.testing"
local lied = require "lied"

local dir = T.lied:match("^(.*)/[^/]*$") or "."
local flat = os.getenv("FLAT_PIPE_BIN")
if not flat or flat == "" then flat = dir .. "/bench/flat_pipe" end

-- ---- 1. against bench/flat_pipe --vary -------------------------------------------
local probe = io.open(flat, "r")
if T.check(probe ~= nil, "flat_pipe binary " .. flat .. " exists (build the target, or set FLAT_PIPE_BIN)") then
  probe:close()
  for _, n in ipairs { 3, 10, 300, 1000 } do
    -- n = 300 is evaluated skewed (chunk by chunk with lagging steps; its
    -- sections have constant matrices, factorised per chunk); n = 1000 is
    -- also scheduled from a window (src/sched/window.c) and takes waves
    local steps = n > 10 and 100 or 1000
    local fcsv, lcsv = os.tmpname() .. ".csv", os.tmpname() .. ".csv"
    local code, out, err = T.sh(string.format("%q %d %d 1e-3 --vary --csv %q", flat, n, steps, fcsv))
    T.eq(code, 0, "flat_pipe exit status (" .. err .. ")")
    T.check(out:find(string.format("cells %d steps %d evaluations %d ", n, steps, 4 * steps), 1, true),
      "flat_pipe prints its counts: " .. out)
    local sets = {}
    for i = 1, n do
      sets[#sets + 1] = string.format("--set 'vol[%d].T0=%.17g' --set 'vol[%d].m_flow=%.17g'",
        i, 293.15 + 5.0 * (i % 7), i, 0.5 * (i % 5) - 1.0)
    end
    code, out, err = T.sh(string.format(
      "%q run examples/pipe.lua --set n=%d %s --solver rk4 --dt 1e-3 --start 0 --stop %.17g " ..
      "--interval 1e-3 --vars 'src.m_flow,vol[*].M,vol[*].U,vol[*].m_flow' --out %q",
      T.lied, n, table.concat(sets, " "), steps * 1e-3, lcsv))
    T.eq(code, 0, "lied run (" .. err .. ")")
    local fh, fr = T.take_csv(fcsv)
    local lh, lr = T.take_csv(lcsv)
    if T.check(fh and lh, "both CSV files written") then
      T.eq(#fh, 2 + 3 * n, "flat columns")
      T.eq(#lh, 2 + 3 * n, "lied columns")
      T.eq(#fr, steps + 1, "flat rows")
      T.eq(#lr, steps + 1, "lied rows")
      local size = {} -- each state's largest magnitude over the run (at least 1)
      for q = 2, #fh do
        size[fh[q]] = 1
        for k = 1, #fr do size[fh[q]] = math.max(size[fh[q]], math.abs(fr[k][fh[q]] or 0)) end
      end
      local worst, where, reversed = 0, "", false
      for k = 1, math.min(#fr, #lr) do
        for q = 2, #fh do
          local name = fh[q]
          local a, b = fr[k][name], lr[k][name]
          local e = (a and b) and math.abs(a - b) / size[name] or math.huge
          if e > worst then worst, where = e, string.format("%s at row %d", name, k) end
          if name:find("m_flow", 1, true) and a and a < 0 then reversed = true end
        end
      end
      print(string.format("n = %d: largest relative difference %.3g (%s)", n, worst, where))
      T.check(worst <= 1e-9, string.format("pipe n = %d against flat_pipe --vary: largest relative " ..
        "difference %.3g (%s)", n, worst, where))
      T.check(reversed, "some flow ran backwards (the upwind branch for reversed flow was exercised)")
      local last = fr[#fr]
      T.check(last["vol[1].U"] ~= fr[1]["vol[1].U"] and
              (last["src.m_flow"] > 1 or (n > 10 and last["src.m_flow"] ~= fr[1]["src.m_flow"])),
        "the states moved: the source's flow accelerated to " .. tostring(last["src.m_flow"]))
    end
  end
end

-- ---- 2. steady flow and the front ------------------------------------------------
local Pipe = dofile("examples/pipe.lua")
T.check(lied.build(Pipe, { n = 1000 }):info().window > 0, "n = 1000 is scheduled from a window (case 1)")
T.check(lied.build(Pipe, { n = 300 }):info().skew_lag > 0, "a pipe of 300 cells is evaluated skewed")
local built = lied.build(Pipe)
local res = built:run { solver = "rk4", dt = 1e-3, start = 0, stop = 200, interval = 1,
                        vars = "vol[*].T,drop[*].m_flow", progress = false }
local P = { n = 16, d = 0.1, dx = 10, dp_ref = 1000, p_in = 1.2e5, p_out = 1e5, T_in = 353.15 }
local A = math.pi * P.d * P.d / 4
local function p_end(m) -- pressure after the n + 1 drops at the steady flow m
  local p = P.p_in
  for _ = 1, P.n + 1 do
    local u = m / (995.586 * (1 + 4.5e-10 * (p - 1e5)) * A)
    p = p - 0.5 * P.dp_ref * (u + u * math.abs(u))
  end
  return p
end
local lo, hi = 0, 100
for _ = 1, 200 do
  local mid = (lo + hi) / 2
  if p_end(mid) > P.p_out then lo = mid else hi = mid end
end
local m_ss = (lo + hi) / 2
local rows = res:nrows()
T.eq(rows, 201, "rows every second")
for k = 1, P.n + 1 do
  T.near(T.column(res, string.format("drop[%d].m_flow", k))[rows], m_ss, 1e-7 * m_ss,
    string.format("drop[%d]: the steady flow %.10g kg/s", k, m_ss))
end
local prev = -1
for i = 1, P.n do
  local T_i = T.column(res, string.format("vol[%d].T", i))
  local first
  for r = 1, rows do
    if T_i[r] > 0.5 * (293.15 + P.T_in) then first = r break end
  end
  T.check(first and first > prev, string.format("the front passes vol[%d] after vol[%d] (row %s)",
    i, i - 1, tostring(first)))
  prev = first or math.huge
  T.check(T_i[rows] <= P.T_in + 1e-9 and T_i[1] >= 293.15 - 1e-9,
    string.format("vol[%d].T stays between the start and the inlet temperature", i))
end

-- ---- 3. flat_pipe's errors ---------------------------------------------------------
if probe then
  local bad = {
    { "", "usage: flat_pipe N STEPS DT [--csv FILE] [--vary]" },
    { "0 10 1e-3", "N must be a whole number >= 1, not '0'" },
    { "x 10 1e-3", "N must be a whole number >= 1, not 'x'" },
    { "4 -1 1e-3", "STEPS must be a whole number >= 0, not '-1'" },
    { "4 10 0", "DT must be a number > 0, not '0'" },
    { "4 10 1e-3 --fast", "unknown argument '--fast'" },
    { "4 10 1e-3 --csv /nonexistent/dir/x.csv", "cannot write /nonexistent/dir/x.csv" },
    { "99999999999999999999 10 1e-3", "N must be a whole number >= 1" },
    { "6148914691236517000 10 1e-3", "is too large" },
  }
  for _, b in ipairs(bad) do
    local code, _, err = T.sh(string.format("%q %s", flat, b[1]))
    T.check(code ~= 0, "flat_pipe " .. b[1] .. ": fails")
    T.check(err:find(b[2], 1, true), string.format("flat_pipe %s: message %q contains %q", b[1], err, b[2]))
  end
end

T.done()
