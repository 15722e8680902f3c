-- tf.steam's inverses ON the phase and region boundaries against an
-- independent IAPWS-IF97, Debian's python3-iapws (tests/validation/data/
-- if97_bounds_gen.py, the committed table if97_bounds.csv; the test needs no
-- python): saturated liquid and vapour from 611.213 Pa to 16.53 MPa (the
-- liquid at 3 MPa is issue 47's (rho, u) that came back as the triple
-- point), region 1 at exactly 623.15 K and 273.15 K, region 2 exactly on the
-- B23 line and at 1073.15 K, region 5 at 1073.15 K. Every inverse, (p, h),
-- (p, s) and (rho, u), must give back the state's T, p and quality: to 1e-9
-- on the saturation line and at 273.15 K; where two regions meet (623.15 K,
-- B23, 1073.15 K) their equations agree only to the formulation's
-- consistency, and a state there may be read as the neighbour's: T to
-- 1e-4, p to 1e-3, and then the returned state must reproduce the input
-- (its h and s from its own p and T). Next to the boundaries, densely:
-- tests/unit/test_if97_bounds.c.
local tf = require "lied.thermofluid"
local T = require "tests.testing"
local steam = tf.steam

local f = assert(io.open((os.getenv("LIED_SRC") or ".") .. "/tests/validation/data/if97_bounds.csv"))
T.eq(f:read("l"), "kind,p,T,h,s,rho,cp,x", "table header")
local rows, worst = 0, {}
local function cmp(what, got, ref, rel, floor)
  local e = math.abs(got - ref) / math.max(math.abs(ref), floor)
  worst[what] = math.max(worst[what] or 0, e)
  T.check(e <= rel, string.format("%s: got %.17g, expected %.17g", what, got, ref))
end
for line in f:lines() do
  local v = {}
  for x in line:gmatch("[^,]+") do v[#v + 1] = tonumber(x) end
  local kind, p, Tk, h, s, rho, x = v[1], v[2], v[3], v[4], v[5], v[6], v[8]
  local u = h - p / rho
  -- 623.15 K (where regions 1, 2, 3 and 4 meet), B23, 1073.15 K
  local boundary = (kind ~= 4 and Tk > 600) or Tk > 623.14
  local tolT, tolp = boundary and 1e-4 or 1e-9, boundary and 1e-3 or 1e-9
  rows = rows + 1
  local where = string.format(" (kind %d, p = %.17g, T = %.17g)", kind, p, Tk)
  local a = steam:state_ph(p, h)
  cmp("T_ph" .. where, a.T, Tk, tolT, 1)
  cmp("h_ph round trip" .. where, a.h, h, 1e-9, 1e3)
  local b = steam:state_ps(p, s)
  cmp("T_ps" .. where, b.T, Tk, tolT, 1)
  cmp("s_ps round trip" .. where, b.s, s, 1e-9, 1)
  cmp("h_ps" .. where, steam:h_ps(p, s), h, boundary and 1e-4 or 1e-9, 1e3)
  local c = steam:state_rhou(rho, u)
  cmp("T_rhou" .. where, c.T, Tk, tolT, 1)
  -- the p of a liquid from (rho, u) is known to eps / compressibility
  cmp("p_rhou" .. where, c.p, p, boundary and tolp or 1e-8, x == 0 and 1e6 or 1)
  for k, st in ipairs { a, b, c } do
    -- the quality; above the critical temperature x is only a name (0 for
    -- denser than 322 kg/m3)
    if Tk < 647 then cmp("x" .. where, st.x, x, boundary and 1e-4 or 1e-8, 1) end
    -- the state read as either region reproduces its input (where its p
    -- and T are its region's)
    local ok, fw = pcall(steam.state_pT, steam, st.p, st.T)
    T.check(ok, ({ "ph", "ps", "rhou" })[k] .. where .. " returns a state state_pT refuses: " .. tostring(fw))
    if ok and boundary and st.region ~= 4 and fw.region == st.region then
      cmp("h of the returned state" .. where, fw.h, st.h, 1e-9, 1e3)
    end
  end
end
f:close()
T.check(rows > 200, "rows: " .. rows)
