-- tests/fuzz/media_bounds.lua: the libFuzzer driver for the media's
-- inverses at their phase and region boundaries (issue 47, item 1). Each 8
-- bytes of the input choose a state made by the forward functions on or
-- next to a boundary of water and steam (the saturation line with qualities
-- 0, 1 and next to them, 273.15 K, 623.15 K, B23, 1073.15 K, 2273.15 K,
-- 100 and 50 MPa, the critical point) or of moist air (the saturation
-- humidity, the range ends), offset by 0 or +-2^-k relative, and feed it to
-- every inverse: (p, h), (p, s), (rho, u), T(p, h), (p, h, X). A refusal
-- is fine; an oracle checks what comes back: finite, inside the range, a
-- quality in [0, 1], and the input reproduced by the forward equation of
-- the region the state was found in. A violation raises "ORACLE: ...",
-- which fuzz_host.c turns into an abort.
local tf = require "lied.thermofluid"
local steam, air = tf.steam, tf.moist_air

local function oracle(ok, what, ...)
  if not ok then error(string.format("ORACLE: " .. what, ...), 0) end
end
local function close(a, b, rel) return math.abs(a - b) <= rel * math.max(math.abs(a), math.abs(b), 1) end

-- an offset of 0 or +-2^-k (k from 1 to 52) from a byte
local function offset(b)
  if b < 16 then return 0 end
  local k = (b % 52) + 1
  return (b % 2 == 0 and 1 or -1) * 2.0 ^ -k
end
-- a fraction in [0, 1] from two bytes
local function frac(a, b) return (a * 256 + b) / 65535 end

local function check_state(st, what)
  for _, k in ipairs { "p", "T", "rho", "h", "u", "s", "x" } do
    oracle(st[k] == st[k] and math.abs(st[k]) < math.huge, "%s: %s is %s", what, k, tostring(st[k]))
  end
  oracle(st.T >= 273.15 and st.T <= 2273.15 and st.p > 0 and st.p <= 100e6,
    "%s: p = %.17g, T = %.17g outside IF97's range", what, st.p, st.T)
  oracle(st.x >= 0 and st.x <= 1, "%s: x = %.17g", what, st.x)
end

-- the forward state at (p, T) when it is in the same region: what the
-- returned state must reproduce
local function same_region(st)
  local ok, f = pcall(steam.state_pT, steam, st.p, st.T)
  return ok and f.region == st.region and st.region ~= 4 and f or nil
end

local function inverses(p, T, h, s, rho, u, what)
  local ok, st = pcall(steam.state_ph, steam, p, h)
  if ok then
    check_state(st, what .. " state_ph")
    oracle(close(st.h, h, 1e-6), "%s state_ph(%.17g, %.17g): h %.17g", what, p, h, st.h)
    local okT, Tp = pcall(steam.T_ph, steam, p, h)
    oracle(okT and Tp == st.T, "%s T_ph(%.17g, %.17g) = %s, state_ph's T %.17g", what, p, h, tostring(Tp), st.T)
  end
  ok, st = pcall(steam.state_ps, steam, p, s)
  if ok then
    check_state(st, what .. " state_ps")
    oracle(close(st.s, s, 1e-6), "%s state_ps(%.17g, %.17g): s %.17g", what, p, s, st.s)
  end
  ok, st = pcall(steam.state_rhou, steam, rho, u)
  if ok then
    check_state(st, what .. " state_rhou")
    local f = same_region(st)
    if f then
      oracle(close(f.rho, rho, 1e-6) and close(f.u, u, 1e-6), "%s state_rhou(%.17g, %.17g): p %.17g T %.17g gives rho %.17g u %.17g",
        what, rho, u, st.p, st.T, f.rho, f.u)
    end
  end
end

local function steam_probe(b)
  local kind, o1, o2 = b[1] % 10, offset(b[2]), offset(b[3])
  local q = frac(b[4], b[5])
  local p, T
  if kind <= 1 then -- saturated liquid (0) or vapour (1), qualities next to them
    p = 611.213 * (22.064e6 / 611.213) ^ q * (1 + o1 / 4)
    local ok, Ts = pcall(steam.Tsat, steam, p)
    if not ok then return end
    local okl, L = pcall(steam.state_pT, steam, p, Ts * (1 - 1e-12))
    local okv, V = pcall(steam.state_pT, steam, p, Ts * (1 + 1e-12))
    if not (okl and okv) then return end
    local x = kind == 0 and math.abs(o2) or 1 - math.abs(o2)
    local v = (1 - x) / L.rho + x / V.rho
    local h, s = L.h + x * (V.h - L.h), L.s + x * (V.s - L.s)
    return inverses(p, Ts, h, s, 1 / v, h - p * v, "saturation")
  elseif kind == 2 then T = 273.15 * (1 + math.abs(o2)); p = 611.213 * (100e6 / 611.213) ^ q
  elseif kind == 3 then T = 623.15 * (1 + o2); p = 16.53e6 * (100e6 / 16.53e6) ^ q
  elseif kind == 4 then -- B23: p23(T) = n1 + n2 T + n3 T^2 MPa (IAPWS R7-97(2012), eq. 5, Table 1)
    T = 623.15 + 240 * q
    p = (0.34805185628969e3 - 0.11671859879975e1 * T + 0.10192970039326e-2 * T * T) * 1e6 * (1 + o2)
  elseif kind == 5 then T = 1073.15 * (1 + o2); p = 1e3 * (50e6 / 1e3) ^ q
  elseif kind == 6 then T = 2273.15 * (1 - math.abs(o2)); p = 1e3 * (50e6 / 1e3) ^ q
  elseif kind == 7 then T = 273.15 + 800 * q; p = 100e6 * (1 - math.abs(o2))
  elseif kind == 8 then T = 1073.15 + 1200 * q; p = 50e6 * (1 - math.abs(o2))
  else T = 647.096 * (1 + o1); p = 22.064e6 * (1 + o2) end
  local ok, st = pcall(steam.state_pT, steam, p, T)
  if not ok then return end
  return inverses(p, T, st.h, st.s, st.rho, st.u, "boundary " .. kind)
end

local function air_probe(b)
  local p = 1e3 * (1e7 / 1e3) ^ frac(b[2], b[3])
  local T = 273.15 + 350 * frac(b[4], b[5])
  if b[1] % 3 == 1 then T = 273.15 * (1 + math.abs(offset(b[6]))) end
  if b[1] % 3 == 2 then T = 623.15 * (1 - math.abs(offset(b[6]))) end
  local ok, Xs = pcall(air.X_phi, air, p, T, 1)
  if not ok or Xs >= 1 - 1e-6 then return end
  local X = math.min(Xs * (1 + offset(b[7])), 0.999)
  local okh, h = pcall(air.h_pTX, air, p, T, X)
  if not okh then return end
  local okT, Tb = pcall(air.T_phX, air, p, h, X)
  if okT then
    -- the range reaches 200 K (ice below the triple point, docs/media.md)
    oracle(Tb == Tb and Tb >= 200 and Tb <= 623.15, "moist air T_phX(%.17g, %.17g, %.17g) = %.17g", p, h, X, Tb)
    if not close(air:h_pTX(p, Tb, X), h, 1e-9) then
      -- at the triple point ice and fog coexist: T stays there while h moves
      -- between the two sides' enthalpies (the latent heat of fusion)
      local h1, h2 = air:h_pTX(p, 273.16 - 1e-7, X), air:h_pTX(p, 273.16 + 1e-7, X)
      local tol = 1e-9 * math.max(math.abs(h1), math.abs(h2), 1)
      oracle(math.abs(Tb - 273.16) < 1e-9 and h >= math.min(h1, h2) - tol and h <= math.max(h1, h2) + tol,
        "moist air T_phX(%.17g, %.17g, %.17g): T %.17g does not give h back", p, h, X, Tb)
    end
  end
end

return function(bytes)
  for i = 1, #bytes - 7, 8 do
    local b = { bytes:byte(i, i + 7) }
    if b[8] % 4 == 0 then air_probe(b) else steam_probe(b) end
  end
end
