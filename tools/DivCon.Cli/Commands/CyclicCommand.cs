using System.Collections.Concurrent;
using System.CommandLine;
using DivCon.Harness.Plots;
using DivCon.Harness.Programs;
using DivCon.Harness.Schemes;

namespace DivCon.Cli.Commands;

/// <summary>
/// <c>divcon cyclic</c>: the main job (thesis §5.4.1, §7.5). The default is one invocation, in this process, sized to
/// finish in about two minutes on a 2-core machine with every scheme (9) and the 3-program workload (strassen,
/// quicksort, mergesort, size medium, ≈ 0.3–0.6 s per run alone): C^SP = 3 programs × (1 warm-up + 5 runs, up to 15
/// more while a window is not steady) × ≈ 0.3 s ≈ 6–20 s; 1 + 3 sequential runs per program for the partitioned
/// schemes' scalabilities ≈ 6 s; 10 s per scheme plus ≈ 0.5 s to stop the discarded runs and collect garbage
/// ≈ 9 × 10.5 s ≈ 95 s; T_1 (3 runs per program) ≈ 5 s; total ≈ 2 min. <c>--repeat N</c> runs N such invocations as
/// child processes (N × that, plus about a second each to start a process and make the inputs).
/// </summary>
internal static class CyclicCommand
{
    public static Command Create(ProgramCatalog catalog, SchemeRegistry registry, ConcurrentQueue<SchemeTimeline>? timelines = null, CliSelf? self = null)
    {
        var programs = CommandInput.List("--programs",
            $"Programs of the workload, comma- or space-separated (default: {string.Join(",", ProgramCatalog.DefaultCyclicWorkload)}). Known: {catalog.Names}.",
            ProgramCatalog.DefaultCyclicWorkload);
        var command = new Command("cyclic",
            "Cyclic multiprogram test (§5.4.1): C^SP of each program alone, then all programs together, each restarted as soon as it ends, "
            + "under each scheme; prints NTT, NP per program and ANTT, MNTT, STP per scheme with 99 % intervals and the paired, corrected comparisons "
            + "between schemes; writes cyclic.json (every raw run time), cyclic.csv, report.md. One invocation by default (about two minutes on 2 cores); "
            + "comparisons need independent invocations: --repeat 10, or --repeat auto --detect 5%.")
        {
            programs,
        };
        var shared = new CyclicOptions(command, Path.Combine("results", "cyclic"), self);
        command.SetAction((parse, ct) =>
        {
            var problems = new List<string>();
            IReadOnlyList<ProgramEntry> entries = catalog.Resolve(CommandInput.SplitNames(parse.GetValue(programs)), problems,
                duplicateHint: " (use 'divcon symmetric' for several instances of one program)");
            return shared.RunAsync(parse, "cyclic", problems, (size, seed) => entries.Select(e => e.Create(size, seed)).ToArray(),
                ["--programs", string.Join(",", entries.Select(e => e.Name))], registry, timelines, ct);
        });
        return command;
    }
}
