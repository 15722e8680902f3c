-- linsolve.lua - dense linear solve for the references written by hand in
-- the tests (require "tests.linsolve"): Gaussian elimination with partial
-- pivoting, independent of lied's LU.
local M = {}

-- Solves A z = b (n x n; A and b are overwritten) and returns z.
function M.solve(A, b, n)
  for k = 1, n do
    local piv = k
    for i = k + 1, n do if math.abs(A[i][k]) > math.abs(A[piv][k]) then piv = i end end
    A[k], A[piv], b[k], b[piv] = A[piv], A[k], b[piv], b[k]
    for i = k + 1, n do
      local f = A[i][k] / A[k][k]
      for j = k, n do A[i][j] = A[i][j] - f * A[k][j] end
      b[i] = b[i] - f * b[k]
    end
  end
  local z = {}
  for i = n, 1, -1 do
    local s = b[i]
    for j = i + 1, n do s = s - A[i][j] * z[j] end
    z[i] = s / A[i][i]
  end
  return z
end

return M
