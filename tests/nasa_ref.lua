-- tests/nasa_ref.lua: the NASA Glenn polynomials evaluated in Lua, written
-- apart from the library (src/lib/thermofluid/nasa.c) as the tests'
-- independent reference: the coefficients transcribed again from the
-- Modelica Standard Library's SingleGasesData.mo (records N2, O2, Ar, CO2,
-- H2O; McBride et al., NASA/TP-2002-211556, Eq. 1-3), mixtures by their
-- definitions (mass-weighted cp and h, entropies at the partial pressures),
-- inverses by bisection. Per kg; h without the enthalpy of formation;
-- entropy at p0 = 1 bar.
local R = {}
local Ru = 8.314510
R.species = {
  N2 = { M = 0.0280134, Hf = 0,
    lo = { 22103.71497, -381.846182, 6.08273836, -0.00853091441, 1.384646189e-005,
           -9.62579362e-009, 2.519705809e-012, 710.846086, -10.76003744 },
    hi = { 587712.406, -2239.249073, 6.06694922, -0.00061396855, 1.491806679e-007,
           -1.923105485e-011, 1.061954386e-015, 12832.10415, -15.86640027 } },
  O2 = { M = 0.0319988, Hf = 0,
    lo = { -34255.6342, 484.700097, 1.119010961, 0.00429388924, -6.83630052e-007,
           -2.0233727e-009, 1.039040018e-012, -3391.45487, 18.4969947 },
    hi = { -1037939.022, 2344.830282, 1.819732036, 0.001267847582, -2.188067988e-007,
           2.053719572e-011, -8.193467050000001e-016, -16890.10929, 17.38716506 } },
  Ar = { M = 0.039948, Hf = 0,
    lo = { 0, 0, 2.5, 0, 0, 0, 0, -745.375, 4.37967491 },
    hi = { 20.10538475, -0.05992661069999999, 2.500069401, -3.99214116e-008, 1.20527214e-011,
           -1.819015576e-015, 1.078576636e-019, -744.993961, 4.37918011 } },
  CO2 = { M = 0.0440095, Hf = -8941478.544405185,
    lo = { 49436.5054, -626.411601, 5.30172524, 0.002503813816, -2.127308728e-007,
           -7.68998878e-010, 2.849677801e-013, -45281.9846, -7.04827944 },
    hi = { 117696.2419, -1788.791477, 8.29152319, -9.22315678e-005, 4.86367688e-009,
           -1.891053312e-012, 6.330036589999999e-016, -39083.5059, -26.52669281 } },
  H2O = { M = 0.01801528, Hf = -13423382.81725291,
    lo = { -39479.6083, 575.573102, 0.931782653, 0.00722271286, -7.34255737e-006,
           4.95504349e-009, -1.336933246e-012, -33039.7431, 17.24205775 },
    hi = { 1034972.096, -2412.698562, 4.64611078, 0.002291998307, -6.836830479999999e-007,
           9.426468930000001e-011, -4.82238053e-015, -13842.86509, -7.97814851 } },
}

-- one species: cp, h, s0 at T
function R.pure(sp, T)
  local d = R.species[sp]
  local a, r = T < 1000 and d.lo or d.hi, Ru / d.M
  local cp = r * (a[1] / T ^ 2 + a[2] / T + a[3] + a[4] * T + a[5] * T ^ 2 + a[6] * T ^ 3 + a[7] * T ^ 4)
  local h = r * (-a[1] / T + a[2] * math.log(T) + a[3] * T + a[4] * T ^ 2 / 2 + a[5] * T ^ 3 / 3
    + a[6] * T ^ 4 / 4 + a[7] * T ^ 5 / 5 + a[8]) - d.Hf
  local s = r * (-a[1] / T ^ 2 / 2 - a[2] / T + a[3] * math.log(T) + a[4] * T + a[5] * T ^ 2 / 2
    + a[6] * T ^ 3 / 3 + a[7] * T ^ 4 / 4 + a[9])
  return cp, h, s
end

-- a mixture: Y = {N2 = ..., O2 = ...} mass fractions
function R.mix(Y)
  local m, n = { Y = Y }, 0
  for sp, y in pairs(Y) do n = n + y / R.species[sp].M end
  m.R = Ru * n
  function m.cp(T)
    local c = 0
    for sp, y in pairs(Y) do c = c + y * (R.pure(sp, T)) end
    return c
  end
  function m.h(T)
    local h = 0
    for sp, y in pairs(Y) do local _, hi = R.pure(sp, T); h = h + y * hi end
    return h
  end
  function m.s(p, T) -- each species at its partial pressure
    local s = 0
    for sp, y in pairs(Y) do
      if y > 0 then
        local _, _, s0 = R.pure(sp, T)
        local x = y / R.species[sp].M / n
        s = s + y * (s0 - Ru / R.species[sp].M * math.log(x * p / 1e5))
      end
    end
    return s
  end
  local function bisect(f, y)
    local lo, hi = 200, 6000
    for _ = 1, 200 do
      local mid = 0.5 * (lo + hi)
      if f(mid) < y then lo = mid else hi = mid end
    end
    return 0.5 * (lo + hi)
  end
  function m.T_h(h) return bisect(m.h, h) end
  function m.T_ps(p, s) return bisect(function(T) return m.s(p, T) end, s) end
  return m
end

-- standard dry air: the U.S. Standard Atmosphere 1976 mole fractions of N2,
-- O2, Ar, CO2, normalised over these four
function R.dry_air()
  local x = { N2 = 0.78084, O2 = 0.209476, Ar = 0.00934, CO2 = 0.000314 }
  local sum, msum, Y = 0, 0, {}
  for _, v in pairs(x) do sum = sum + v end
  for sp, v in pairs(x) do msum = msum + v / sum * R.species[sp].M end
  for sp, v in pairs(x) do Y[sp] = v / sum * R.species[sp].M / msum end
  return R.mix(Y)
end

return R
