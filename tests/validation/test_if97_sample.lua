-- tf.steam (IAPWS-IF97, src/lib/thermofluid/if97*.c) against an independent
-- implementation: 1691 states of regions 1, 2, 3, 5 and two-phase mixtures
-- (below and above 623.15 K)
-- computed by Debian's python3-iapws (tests/validation/data/if97_gen.py, the
-- committed table if97_sample.csv; the test needs no python). Every property
-- agrees to 1e-9 relative (relative to max(|ref|, floor): h and u near the
-- triple point are close to zero, floors 1 kJ/kg and 1 J/(kg K); the
-- pressure of a liquid from (rho, u) is known only to eps / compressibility,
-- about 1 mPa: floor 1 MPa).
local tf = require "lied.thermofluid"
local T = require "tests.testing"
local steam = tf.steam

local f = assert(io.open((os.getenv("LIED_SRC") or ".") .. "/tests/validation/data/if97_sample.csv"))
local header = f:read("l")
T.eq(header, "kind,p,T,h,s,rho,cp,x", "sample header")
local worst, count = {}, { 0, 0, 0, 0, 0, 0 }
local function cmp(what, got, ref, floor)
  local e = math.abs(got - ref) / math.max(math.abs(ref), floor)
  worst[what] = math.max(worst[what] or 0, e)
  if e > 1e-9 then T.check(false, string.format("%s: got %.17g, expected %.17g", what, got, ref)) end
end
for line in f:lines() do
  local kind, p, Tk, h, s, rho, cp, x = line:match("^(%d),([^,]+),([^,]+),([^,]+),([^,]+),([^,]+),([^,]+),([^,]+)$")
  kind, p, Tk, h, s, rho, cp, x = tonumber(kind), tonumber(p), tonumber(Tk), tonumber(h),
    tonumber(s), tonumber(rho), tonumber(cp), tonumber(x)
  count[kind] = count[kind] + 1
  local u = h - p / rho
  -- (p, h) -> T, rho, x, s: the backward equations refined by Newton
  cmp("T_ph", steam:T_ph(p, h), Tk, 1)
  cmp("rho_ph", steam:rho_ph(p, h), rho, 1e-3)
  cmp("s_ph", steam:s_ph(p, h), s, 1)
  cmp("x_ph", steam:x_ph(p, h), x, 1)
  -- (p, s) -> T, h
  cmp("T_ps", steam:T_ps(p, s), Tk, 1)
  cmp("h_ps", steam:h_ps(p, s), h, 1e3)
  -- (rho, u) -> p, T, x: what a volume needs
  cmp("p_rhou", steam:p_rhou(rho, u), p, kind == 1 and 1e6 or 1)
  cmp("T_rhou", steam:T_rhou(rho, u), Tk, 1)
  cmp("x_rhou", steam:x_rhou(rho, u), x, 1)
  if kind ~= 4 and kind ~= 6 then -- (p, T) forward
    cmp("h_pT", steam:h_pT(p, Tk), h, 1e3)
    cmp("s_pT", steam:s_pT(p, Tk), s, 1)
    cmp("rho_pT", steam:rho_pT(p, Tk), rho, 1e-3)
    cmp("cp_pT", steam:cp_pT(p, Tk), cp, 1)
    cmp("cp_ph", steam:cp_ph(p, h), cp, 1)
  else
    cmp("Tsat", steam:Tsat(p), Tk, 1)
    cmp("psat", steam:psat(Tk), p, 1)
  end
end
f:close()
T.check(count[1] >= 400 and count[2] >= 400 and count[3] >= 250 and count[5] >= 100 and
  count[4] >= 200 and count[6] >= 50,
  string.format("sample sizes: region 1 %d, 2 %d, 3 %d, 5 %d, two-phase %d and %d above 623.15 K",
    count[1], count[2], count[3], count[5], count[4], count[6]))
local names = {}
for k in pairs(worst) do names[#names + 1] = k end
table.sort(names)
for _, k in ipairs(names) do io.write(string.format("%-7s worst relative difference %.2e\n", k, worst[k])) end
T.done()
