-- examples/heating_ring.lua (two plants feeding a ring; plant B fails at
-- t_fail and flow reverses through it and in the ring sections next to it),
-- and a temperature front advected both ways through undirected cells:
-- 1. the ring is closed: its water's mass (the sum of the 36 volumes' M) is
--    conserved, and its energy (the sum of their U) changes exactly by the
--    heat of the boilers and the consumers (the pumps' work is not in the
--    model: the pump raises the pressure and passes h on), to 1e-9
--    relative over a run through the reversal; the flows reverse;
-- 2. a pipe of N undirected cells between two boundaries: hot water fills it
--    from the rear end, then the boundaries' pressures swap and cold water
--    comes back from the fore end. Each cell is a well-mixed tank of mass
--    M_c, so the tanks in series turn a step into an Erlang distribution in
--    the throughput W = integral of the flow (the discretisation's
--    accuracy): the step reaches the end of cell k (plug flow: when W =
--    k M_c) as the mean of cell k's response (to 1 % of a cell), and cell k
--    is half-way at the Erlang distribution's median (to 1 % of a cell; it
--    lies 0.31 .. 1/3 of a cell before plug flow). Checked for every cell,
--    forwards and rearwards, against the throughput integrated here from the
--    recorded flow.
local lied = require "lied"
local tfu = require "lied.undirected"
local sig = lied.library "signals"
local T = require "tests.testing"

-- ---- 1. the ring: mass and energy --------------------------------------------------------
do
  local Ring = dofile("examples/heating_ring.lua")
  local Q_A, Q_B, Q_2, Q_4, t_fail = 4e5, 3e5, -3.5e5, -2.5e5, 600
  local res = lied.simulate(Ring):run { stop = 1500, interval = 5,
    vars = "*.M,*.U,pumpB.m_flow,sec23.drop[1].m_flow,sec34.drop[1].m_flow,boilerB.Q" }
  local t = T.column(res, "time")
  local Ms, Us = {}, {}
  for _, name in ipairs(T.names(res)) do
    if name:match("%.M$") then Ms[#Ms + 1] = T.column(res, name) end
    if name:match("%.U$") then Us[#Us + 1] = T.column(res, name) end
  end
  T.eq(#Ms, 36, "the ring's volumes")
  local function total(cols, k)
    local s = 0
    for _, c in ipairs(cols) do s = s + c[k] end
    return s
  end
  local M0, U0 = total(Ms, 1), total(Us, 1)
  local dM, dE, turnover = 0, 0, 0
  for k = 1, #t do
    local heat = (Q_A + Q_2 + Q_4) * t[k] + Q_B * math.min(t[k], t_fail)
    turnover = (Q_A - Q_2 - Q_4) * t[k] + Q_B * math.min(t[k], t_fail)
    dM = math.max(dM, math.abs(total(Ms, k) - M0))
    dE = math.max(dE, math.abs(total(Us, k) - U0 - heat))
  end
  print(string.format("ring: mass %.6g kg, largest change %.3g kg (%.3g); energy %.6g J, largest " ..
    "departure from the heat balance %.3g J (%.3g of it, %.3g of the heat turned over)", M0, dM, dM / M0,
    U0, dE, dE / math.abs(U0), dE / turnover))
  T.check(dM <= 1e-9 * M0, "ring: mass conserved to 1e-9 relative")
  T.check(dE <= 1e-9 * math.abs(U0), "ring: energy balance to 1e-9 relative")
  T.check(dE <= 1e-9 * turnover, "ring: energy balance to 1e-9 of the heat turned over")
  -- the reversals: plant B's flow and the sections next to S3
  local function at(name, tt)
    local c, v = T.column(res, name)
    for k = 1, #t do if t[k] <= tt then v = c[k] end end
    return v
  end
  T.check(at("pumpB.m_flow", t_fail - 5) > 5 and at("pumpB.m_flow", 1500) < -2,
    string.format("plant B's flow reverses: %.3f -> %.3f kg/s", at("pumpB.m_flow", t_fail - 5), at("pumpB.m_flow", 1500)))
  T.check(at("sec23.drop[1].m_flow", t_fail - 5) < -2 and at("sec23.drop[1].m_flow", 1500) > 1,
    "section S2-S3 reverses (plant A feeds S3 now)")
  T.check(at("sec34.drop[1].m_flow", t_fail - 5) > 2 and at("sec34.drop[1].m_flow", 1500) < -1,
    "section S3-S4 reverses")
  T.near(at("boilerB.Q", 1500), 0, 0, "plant B's burner is out")
end

-- ---- 2. a front, forwards and back --------------------------------------------------------
do
  local N, dx, d = 20, 10, 0.1
  local A = math.pi * d * d / 4
  local t_rev, stop = 600, 1200
  local Front = lied.model "Front" {
    a = tfu.BoundaryRear { p0_from_input = 1, T0 = 360, L = dx / A },
    pa = sig.Step { offset = 1.2e5, height = -0.4e5, t0 = t_rev },
    drop = lied.array(tfu.PressureDrop { dp_ref = 1000, v_ref = A }, N + 1),
    vol = lied.array(tfu.Volume { V = A * dx, T0 = 300, L_fore = dx / A }, N,
      { p0 = function(i) return 1.2e5 - 0.2e5 * i / (N + 1) end }),
    b = tfu.BoundaryFore { p0 = 1e5, T0 = 300 },
    connect = {
      { "pa.y", "a.p0_in" }, { "a.fore", "drop[1].rear" },
      lied.each(1, N, { "drop[i].fore", "vol[i].rear" }, { "vol[i].fore", "drop[i+1].rear" }),
      { string.format("drop[%d].fore", N + 1), "b.rear" },
    },
  }
  local res = lied.simulate(Front):run { stop = stop, solver = "dopri45", tol = 1e-8, interval = 0.5,
                                         vars = "vol[*].T,vol[*].M,a.m_flow,b.m_flow" }
  local t = T.column(res, "time")
  local ma, mb = T.column(res, "a.m_flow"), T.column(res, "b.m_flow")
  -- throughputs: forwards what entered at a, rearwards what entered at b
  local Wf, Wr = { 0 }, { 0 }
  for k = 2, #t do
    local h = t[k] - t[k - 1]
    -- (a tank in series sees its inflow's history only while the flow runs its way)
    Wf[k] = Wf[k - 1] + (t[k] <= t_rev and math.max(0, 0.5 * (ma[k] + ma[k - 1])) * h or 0)
    Wr[k] = Wr[k - 1] + (t[k - 1] >= t_rev and math.max(0, -0.5 * (mb[k] + mb[k - 1])) * h or 0)
  end
  local Mc = T.column(res, "vol[1].M")[1]
  -- the mean and the half-way point of cell k's step response, in throughput
  local function response(k, W, rising, t0, t1)
    local Tk = T.column(res, string.format("vol[%d].T", k))
    local lo, hi = rising and 300 or 360, rising and 360 or 300
    local mean, half, prev = 0, nil, 0
    for q = 1, #t do
      if t[q] >= t0 and t[q] <= t1 then
        local th = (Tk[q] - lo) / (hi - lo)
        mean = mean + 0.5 * (W[q] + W[q - 1]) * (th - prev)
        if not half and th >= 0.5 then
          half = W[q - 1] + (W[q] - W[q - 1]) * (0.5 - prev) / (th - prev)
        end
        prev = th
      end
    end
    return mean, half, prev
  end
  -- the median of the Erlang distribution of k stages, in stages: P(k, x) = 1/2
  local function median(k)
    local function P(x)
      local term, sum = 1, 1
      for j = 1, k - 1 do term = term * x / j; sum = sum + term end
      return 1 - math.exp(-x) * sum
    end
    local lo, hi = 0, 2 * k + 2
    for _ = 1, 100 do
      local mid = 0.5 * (lo + hi)
      if P(mid) < 0.5 then lo = mid else hi = mid end
    end
    return 0.5 * (lo + hi)
  end
  local worst_mean, worst_half = 0, 0
  for k = 1, N do
    -- forwards: the hot front from a reaches the end of cell k at W = k Mc
    local mean, half, final = response(k, Wf, true, 0.5, t_rev)
    T.check(final > 0.999, string.format("forwards: cell %d filled with hot water (%.4f)", k, final))
    worst_mean = math.max(worst_mean, math.abs(mean - k * Mc) / Mc)
    worst_half = math.max(worst_half, math.abs(half - median(k) * Mc) / Mc)
    -- rearwards: the cold front from b reaches the end of cell k, N + 1 - k cells in
    local j = N + 1 - k
    mean, half, final = response(k, Wr, false, t_rev, stop)
    T.check(final > 0.999, string.format("rearwards: cell %d filled with cold water (%.4f)", k, final))
    worst_mean = math.max(worst_mean, math.abs(mean - j * Mc) / Mc)
    worst_half = math.max(worst_half, math.abs(half - median(j) * Mc) / Mc)
  end
  print(string.format("fronts: the mean of each cell's response within %.3g of a cell's mass of plug " ..
    "flow, its half-way point within %.3g of the tanks in series' median", worst_mean, worst_half))
  T.check(worst_mean <= 0.01, "the fronts' mean arrivals are plug flow's (1 % of a cell), both ways")
  T.check(worst_half <= 0.01, "the fronts' half-way points are the tanks in series' (1 % of a cell), both ways")
  T.check(ma[#ma] < 0 and mb[#mb] < 0, "the flow ran rearwards at the end")
end

T.done()
