-- examples/undirected_pipe.lua (a water pipe of n undirected cells) against
-- 1. examples/pipe.lua, the same pipe of directed components: forwards both
--    integrate the same equations, every state within 1e-9 of its size over
--    20 s (measured 2.5e-10: a pressure is (rho/rho0 - 1)/beta, so a density's
--    rounding comes back 1/beta larger, and the two sum their inertial
--    pressures in other orders);
-- 2. itself mirrored: with the boundaries' pressures and temperatures
--    swapped the flow runs rearwards, and cell i must do what cell n+1-i did
--    forwards (the start pressures fall linearly towards the lower boundary
--    either way) - the undirected components have no preferred direction.
local lied = require "lied"
local T = require "tests.testing"

local UP = dofile("examples/undirected_pipe.lua")
local DP = dofile("examples/pipe.lua")
local n = 12
local vars = {}
for i = 1, n do vars[#vars + 1] = string.format("vol[%d].T,vol[%d].p,vol[%d].M", i, i, i) end
vars = table.concat(vars, ",")

local function run(model, set, extra)
  set.n = n
  return lied.simulate(model, { set = set }):run { stop = 20, dt = 1e-3, interval = 1,
                                                   vars = vars .. (extra or "") }
end

-- ---- 1. forwards, against the directed pipe --------------------------------------------
do
  local u = run(UP, {}, ",drop[1].m_flow,drop[13].m_flow")
  local d = run(DP, {}, ",drop[1].m_flow,drop[13].m_flow")
  local worst, where = 0, ""
  for _, name in ipairs(T.names(u)) do
    local a, b = T.column(u, name), T.column(d, name)
    local size = 1
    for k = 1, #b do size = math.max(size, math.abs(b[k])) end
    for k = 1, #a do
      local e = math.abs(a[k] - b[k]) / size
      if e > worst then worst, where = e, string.format("%s at row %d", name, k) end
    end
  end
  print(string.format("undirected against directed pipe: largest relative difference %.3g (%s)", worst, where))
  T.check(worst <= 1e-9, string.format("forwards the undirected pipe is the directed one (%.3g, %s)", worst, where))
  local m = T.column(u, "drop[1].m_flow")
  T.check(m[#m] > 8, "the flow accelerated forwards: " .. m[#m])
end

-- ---- 2. rearwards, the mirror image ----------------------------------------------------
do
  local f = run(UP, {}, ",drop[1].m_flow")
  local r = run(UP, { p_in = 1e5, p_out = 1.2e5, T_in = 313.15, T_out = 353.15 }, ",drop[13].m_flow")
  local worst, where = 0, ""
  for i = 1, n do
    for _, q in ipairs { "T", "p", "M" } do
      local a = T.column(r, string.format("vol[%d].%s", i, q))
      local b = T.column(f, string.format("vol[%d].%s", n + 1 - i, q))
      local size = 1
      for k = 1, #b do size = math.max(size, math.abs(b[k])) end
      for k = 1, #a do
        local e = math.abs(a[k] - b[k]) / size
        if e > worst then worst, where = e, string.format("vol[%d].%s at row %d", i, q, k) end
      end
    end
  end
  local mf, mr = T.column(f, "drop[1].m_flow"), T.column(r, "drop[13].m_flow")
  for k = 1, #mf do
    local e = math.abs(mf[k] + mr[k]) / 10
    if e > worst then worst, where = e, "the flows at row " .. k end
  end
  print(string.format("reversed pipe against the forward one mirrored: largest relative difference %.3g (%s)", worst, where))
  T.check(worst <= 1e-9, string.format("rearwards the pipe mirrors forwards (%.3g, %s)", worst, where))
  T.check(mr[#mr] < -8, "the flow ran rearwards: " .. mr[#mr])
  local T1 = T.column(r, "vol[12].T")
  T.check(T1[#T1] > 340, "the far end's hot water reached the last cell first")
end

T.done()
