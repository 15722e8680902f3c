-- lied.plot: quick plots of results through gnuplot. A file (png, svg, pdf)
-- when opts.file is given; a window when a display and an X11-capable
-- gnuplot exist; otherwise a text plot in the terminal.
local plot = {}

-- Quote a string for gnuplot (single quotes; a quote is doubled).
local function gq(s)
  return "'" .. tostring(s):gsub("'", "''") .. "'"
end
plot.quote = gq

local function have_gnuplot()
  local ok = os.execute("command -v gnuplot >/dev/null 2>&1")
  return ok == true or ok == 0
end

local terminals = { png = "pngcairo size 900,600", svg = "svg size 900,600",
                    pdf = "pdfcairo size 9in,6in" }

-- plot.result(result, names, opts): names is a list of recorded variables
-- (default: all); opts.file, opts.title, opts.x (a variable for x-y plots).
function plot.result(result, names, opts)
  opts = opts or {}
  if not have_gnuplot() then
    return nil, "gnuplot is not installed: sudo apt-get install gnuplot (or gnuplot-nox)"
  end
  names = names or result:names()
  if #names == 0 then return nil, "nothing to plot" end
  local units = result:units()
  local xs = result:column(opts.x or "time")
  if not xs then return nil, "'" .. opts.x .. "' was not recorded" end
  local cols = {}
  for i, n in ipairs(names) do
    local c, err = result:column(n)
    if not c then return nil, err end
    cols[i] = c
  end
  local data = os.tmpname()
  local f = assert(io.open(data, "w"))
  for r = 1, #xs do
    local row = { string.format("%.17g", xs[r]) }
    for i = 1, #cols do row[#row + 1] = string.format("%.17g", cols[i][r]) end
    f:write(table.concat(row, " "), "\n")
  end
  f:close()
  local script = {}
  local ext = opts.file and opts.file:match("%.(%w+)$")
  if opts.file then
    local term = terminals[ext or ""]
    if not term then
      os.remove(data)
      return nil, "plot file must end in .png, .svg or .pdf: " .. opts.file
    end
    script[#script + 1] = "set terminal " .. term
    script[#script + 1] = "set output " .. gq(opts.file)
  elseif os.getenv("DISPLAY") and not opts.text then
    script[#script + 1] = "set terminal x11 persist"
  else
    local tty = os.execute("test -t 1")
    script[#script + 1] = "set terminal dumb size 100,30" .. ((tty == true or tty == 0) and " ansi" or "")
  end
  if opts.title then script[#script + 1] = "set title " .. gq(opts.title) end
  local xu = opts.x and units[opts.x] or "s"
  script[#script + 1] = "set xlabel " .. gq((opts.x or "time") .. " [" .. xu .. "]")
  script[#script + 1] = "set grid"
  script[#script + 1] = "set key outside right"
  local parts = {}
  for i, n in ipairs(names) do
    local u = units[n]
    local label = (u and u ~= "") and (n .. " [" .. u .. "]") or n
    parts[#parts + 1] = string.format("%s using 1:%d with lines title %s", gq(data), i + 1, gq(label))
  end
  script[#script + 1] = "plot " .. table.concat(parts, ", ")
  local sf = os.tmpname()
  f = assert(io.open(sf, "w"))
  f:write(table.concat(script, "\n"), "\n")
  f:close()
  local ok = os.execute("gnuplot " .. sf)
  os.remove(sf)
  os.remove(data)
  if not (ok == true or ok == 0) then return nil, "gnuplot failed" end
  return true
end

return plot
