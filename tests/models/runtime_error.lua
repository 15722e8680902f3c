local lied = require "lied"
error("deliberate failure in the model file")
