-- Validation of examples/reverse_heat_pump.lua (issue 44's reversible heat pump) run with
-- the solver settings of its experiment (cvode, tol 1e-8, 1,200 s, the switch from cooling
-- to heating at 600 s):
-- 1. the refrigerant's charge (two undirected exchangers, the receiver volume, the
--    accumulator: every vessel of the circuit) kept to 1e-9 relative at every row, through
--    the mode switch;
-- 2. at the steady state of each mode the refrigerant's energy balance (compressor power
--    plus the heat the two exchangers take in) closes to 1e-6 of the power;
-- 3. the modes are what they claim: cooling, the flow runs forwards through both exchangers
--    (outdoor condensing above the indoor evaporator, the indoor air cooled); heating, it
--    runs rearwards through both (the indoor exchanger condensing, the indoor air heated);
--    the outdoor exchanger's flow crosses zero once, at the switch.
local lied = require "lied"
local T = require "tests.testing"

local HP = dofile("examples/reverse_heat_pump.lua")
local res, stats = lied.simulate(HP):run()
local t = res:column("time")
local col = {}
for _, n in ipairs(res:names()) do col[n] = res:column(n) end
T.near(t[#t], 1200, 1e-9, "the run completes with the experiment's settings")

-- 1. the charge
local M0 = HP.mode_figures(col, 1).M
local dM = 0
for r = 1, #t do dM = math.max(dM, math.abs(HP.mode_figures(col, r).M - M0) / M0) end
T.check(M0 > 1 and M0 < 3, "the charge " .. M0 .. " kg")
T.check(dM < 1e-9, "charge kept through the switch: " .. dM)

-- 2. and 3. each mode at its steady state: cooling just before the switch, heating at the end
local function row_at(time)
  local r = 1
  while r < #t and t[r + 1] <= time + 1e-9 do r = r + 1 end
  return r
end
local rc, rh = row_at(599), #t
local fc, fh = HP.mode_figures(col, rc), HP.mode_figures(col, rh)
for _, m in ipairs { { "cooling", fc }, { "heating", fh } } do
  T.check(math.abs(m[2].balance) < 1e-6, m[1] .. ": energy balance " .. m[2].balance)
end
T.check(col["hx_o.m_flow"][rc] > 0.03 and col["hx_i.m_flow"][rc] > 0.03, "cooling: both flows forwards")
T.check(col["hx_o.m_flow"][rh] < -0.03 and col["hx_i.m_flow"][rh] < -0.03, "heating: both flows rearwards")
T.check(col["hx_o.p"][rc] > col["hx_i.p"][rc] + 1e5, "cooling: the outdoor exchanger at the high pressure")
T.check(col["hx_i.p"][rh] > col["hx_o.p"][rh] + 1e5, "heating: the indoor exchanger at the high pressure")
T.check(fc.Q_air < -5e3 and fc.Q_o < 0 and fc.Q_i > 0, "cooling: the indoor air cooled " .. fc.Q_air)
T.check(fh.Q_air > 5e3 and fh.Q_o > 0 and fh.Q_i < 0, "heating: the indoor air heated " .. fh.Q_air)
T.check(fc.COP > 1 and fh.COP > 1, "COPs " .. fc.COP .. ", " .. fh.COP)
local crossings = 0
for r = 2, #t do
  if (col["hx_o.m_flow"][r] < 0) ~= (col["hx_o.m_flow"][r - 1] < 0) then crossings = crossings + 1 end
end
T.eq(crossings, 1, "the outdoor exchanger's flow reverses once")
io.write(string.format("reverse heat pump: %d steps; charge %.4f kg to %.1e; cooling %.4f kW at COP %.4f "
  .. "(balance %.1e), heating %.4f kW at COP %.4f (balance %.1e)\n", stats.steps, M0, dM, -fc.Q_air / 1e3,
  fc.COP, fc.balance, fh.Q_air / 1e3, fh.COP, fh.balance))
T.done()
