-- The lane forms of the undirected cells (docs/thermofluid.md, "Lane forms of
-- the undirected cells"): an ensemble of small undirected circuits, one copy
-- per array element, each a BoundaryRear, two cells (PressureDrop and Volume)
-- and a BoundaryFore. Copies differ in their boundaries' pressures (half of
-- them flow rearwards, some stay within the blend near zero flow), their
-- temperatures and start flows. Run in lane form (fused steps over groups of
-- 32 copies) and copy by copy (lanes = false): the same bits in every state
-- at every output point; and the lane form is used. Liquid copies take the
-- vectorised path of each lane form; an ensemble of ideal-gas circuits the
-- medium's table.
local lied = require "lied"
local tfu = require "lied.undirected"
local T = require "tests.testing"

local function circuit(medium, p_hi, dpk)
  return lied.model "Circuit" {
    parameters = { pa = p_hi, pb = 1e5, Ta = 330, Tb = 290 },
    a = tfu.BoundaryRear { p0 = lied.param "pa", T0 = lied.param "Ta", L = 500, medium = medium,
                           m_flow_reg = 0.05 },
    d1 = tfu.PressureDrop { dp_ref = dpk, v_ref = 1e-3, medium = medium },
    v1 = tfu.Volume { V = 0.5, p0 = 1.1e5, T0 = 300, L_fore = 800, medium = medium, m_flow_reg = 0.05 },
    d2 = tfu.PressureDrop { dp_ref = dpk, v_ref = 1e-3, medium = medium },
    v2 = tfu.Volume { V = 0.4, p0 = 1.05e5, T0 = 310, L_fore = 800, medium = medium, m_flow_reg = 0.05 },
    d3 = tfu.PressureDrop { dp_ref = dpk, v_ref = 1e-3, medium = medium },
    b = tfu.BoundaryFore { p0 = lied.param "pb", T0 = lied.param "Tb", medium = medium, m_flow_reg = 0.05 },
    connect = { { "a.fore", "d1.rear" }, { "d1.fore", "v1.rear" }, { "v1.fore", "d2.rear" },
                { "d2.fore", "v2.rear" }, { "v2.fore", "d3.rear" }, { "d3.fore", "b.rear" } },
  }
end

local function ensemble(medium, n, p_hi, dpk, dp)
  return lied.model "Ensemble" {
    c = lied.array(circuit(medium, p_hi, dpk), n, {
      -- the pressure difference changes sign along the array; a few copies stay
      -- near zero (within the blend)
      pa = function(i) return 1e5 + dp * (i - n / 2) / (n / 2) end,
      Ta = function(i) return 300 + (i % 7) * 5 end,
      ["v1.m_flow"] = function(i) return 0.01 * ((i % 5) - 2) end,
      ["a.m_flow"] = function(i) return 0.02 * ((i % 3) - 1) end,
    }),
  }
end

local function compare(model, what, stop, dt)
  local built = lied.build(model)
  local vars = "c[*].v1.M,c[*].v1.U,c[*].v2.M,c[*].v2.U,c[*].v1.m_flow,c[*].v2.m_flow,c[*].a.m_flow"
  local o = { solver = "rk4", stop = stop, dt = dt, interval = stop / 4, progress = false, vars = vars,
              threads = 1 }
  local r1, s1 = built:run(o)
  o.lanes = false
  local r0, s0 = built:run(o)
  T.check(s1.lanes and not s0.lanes, what .. ": the run in lane form, and copy by copy")
  local same, n, rev = true, 0, false
  for _, name in ipairs(T.names(r1)) do
    local a, b = T.column(r1, name), T.column(r0, name)
    for k = 1, #a do
      same = same and a[k] == b[k]
      n = n + 1
    end
    if name:find("m_flow", 1, true) and a[#a] < 0 then rev = true end
  end
  T.check(same, what .. ": every state at every output point has the same bits (" .. n .. " values)")
  T.check(rev, what .. ": some copies flow rearwards")
  return r1
end

compare(ensemble(tfu.water, 70, 1.3e5, 1e4, 3e4), "water circuits", 0.5, 1e-3)
compare(ensemble(tfu.air, 40, 1.02e5, 200, 2e3), "air circuits", 0.2, 1e-4)

T.done()
