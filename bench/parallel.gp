# bench/parallel.gp - charts of bench/parallel's and bench/mpi's tables.
#   gnuplot -e "chart='threads'; files='bench/results/parallel-A.txt ...'; out='x.png'" bench/parallel.gp
#     the speedup of the largest thread count over one thread per model and
#     number of crabs, from every file given (bench/parallel's text tables);
#   gnuplot -e "chart='mpi'; files='bench/results/mpi-vm.txt'; out='x.png'" bench/parallel.gp
#     peak memory per rank and CPU time of the largest rank, relative to
#     one process, against the number of processes (bench/mpi's table).
# machine: a subtitle.
if (!exists("chart")) chart = 'threads'
if (!exists("files")) files = ''
if (!exists("out")) out = 'parallel-'.chart.'.png'
if (!exists("machine")) machine = ''

set terminal pngcairo size 900,560 enhanced font 'sans,11'
set output out
set grid ytics lc rgb '#dddddd'
set key top left box opaque

if (chart eq 'threads') {
  # rows: model crabs threads steps ns/eval/crab speedup cpu-ns/eval/crab efficiency
  # x: log4 of the crabs, one series per model, the points of every file
  set title 'two threads against one: speedup of the evaluation'.(machine ne '' ? "\n{/*0.8 ".machine.'}' : '')
  set xlabel 'crane crabs n   (k = 1024, M = 1024^2)'
  set ylabel 'speedup (one thread''s time / two threads'')'
  set xtics ('16' 2, '1k' 5, '16k' 7, '262k' 9, '1M' 10, '4M' 11)
  set xrange [1.5:11.5]
  set yrange [0:2.4]
  set arrow 1 from graph 0, first 1.8 to graph 1, first 1.8 nohead dt 2 lc rgb '#aa0000'
  set label 1 'target 1.8' at graph 0.02, first 1.86 tc rgb '#aa0000'
  set arrow 2 from graph 0, first 2 to graph 1, first 2 nohead dt 3 lc rgb '#888888'
  set key bottom right box opaque
  x(n) = log(n) / log(4)
  # filled: the threads' CPU time per evaluation within 10% of one thread's
  # (efficiency >= 0.9); open: more (the host's cores shared, not lied's work)
  is(m, hi) = strcol(1) eq m && column(3) > 1 && (column(8) >= 0.9) == hi ? column(6) : NaN
  is_first(f) = f eq word(files, 1)
  plot for [f in files] f using (x($2) - 0.08):(is('scaling', 1)) with points pt 7 ps 1.4 lc rgb '#1f77b4' \
         title (is_first(f) ? 'independent crabs (scaling.lua)' : ''), \
       for [f in files] f using (x($2) + 0.08):(is('chain', 1)) with points pt 5 ps 1.4 lc rgb '#d62728' \
         title (is_first(f) ? 'crab chain (crab\_chain.lua)' : ''), \
       for [f in files] f using (x($2) - 0.08):(is('scaling', 0)) with points pt 6 ps 1.4 lc rgb '#1f77b4' \
         title (is_first(f) ? 'open: two threads took over 10% more CPU time per evaluation' : ''), \
       for [f in files] f using (x($2) + 0.08):(is('chain', 0)) with points pt 4 ps 1.4 lc rgb '#d62728' \
         notitle
} else {
  # rows: NAME... ranks wall-s run-s cpu-max cpu-sum ratio peak...; NAME has spaces
  # (and numbers: "mpirun -np 2"), so the fields are counted from the wall time, the
  # first with a decimal point
  f = word(files, 1)
  pick = '{ for (j = 1; j <= NF && $j !~ /\./; j++); print $(j - 1), $(j + 4), $(j + 2) }'
  rows = "< awk '/^mpirun/ ".pick."' ".f
  one = "< awk '/^one process/ ".pick."' ".f
  stats one using 3 nooutput
  cpu1 = STATS_max
  set title 'an ensemble of 1,048,576 crabs over MPI ranks'.(machine ne '' ? "\n{/*0.8 ".machine.'}' : '')
  set xlabel 'processes (3 and 4: more than the cores)'
  set ylabel 'per rank / one process'
  set xrange [0.5:4.5]
  set yrange [0:1.15]
  set xtics 1
  plot rows using 1:2 with linespoints pt 7 ps 1.4 lw 2 lc rgb '#1f77b4' title 'peak memory of the largest rank', \
       rows using 1:($3 / cpu1) with linespoints pt 5 ps 1.4 lw 2 lc rgb '#d62728' title 'CPU time of the largest rank', \
       1 / x with lines dt 2 lc rgb '#888888' title '1 / processes'
}
