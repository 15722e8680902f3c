-- tests/fuzz/stages.lua: how far inputs get in the model driver.
--   lied tests/fuzz/stages.lua [DIR|random N]
local drive = dofile((os.getenv("LIED_SRC") or ".") .. "/tests/fuzz/model_gen.lua")
local n = tonumber(arg[2]) or 2000
if arg[1] and arg[1] ~= "random" then
  for f in io.popen("ls " .. arg[1]):lines() do
    local h = io.open(arg[1] .. "/" .. f, "rb")
    drive(h:read("a"))
    h:close()
  end
else
  math.randomseed(1)
  for _ = 1, n do
    local t = {}
    for i = 1, math.random(8, 200) do t[i] = string.char(math.random(0, 255)) end
    drive(table.concat(t))
  end
end
local s = LIED_FUZZ_STAGES
print(string.format("inputs %d, declared %d, built %d, ran %d, checked %d", s.inputs, s.declared,
  s.built, s.ran, s.checked))
