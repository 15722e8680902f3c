-- A model file that forgets to return its model.
local lied = require "lied"
local tl = require "lied.testlib"
local M = lied.model "Forgotten" { c = tl.Constant {} }
