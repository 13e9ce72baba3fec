using System.CommandLine;
using DivCon.Cli.Programs;
using DivCon.Harness.Plots;
using DivCon.Harness.Programs;
using DivCon.Harness.Schemes;

namespace DivCon.Cli.Commands;

/// <summary>
/// <c>divcon cyclic</c>: the main job (thesis §5.4.1, §7.5). Defaults are sized to finish in about two minutes on a
/// 2-core machine with every scheme (9) and the 3-program workload (strassen, quicksort, mergesort, size medium,
/// ≈ 0.5–1.5 s per run alone): C^SP = 3 programs × (1 warm-up + 5 runs) × ≈ 1 s ≈ 18 s on the standalone work-stealing
/// scheduler; one sequential run per program for the partitioned schemes' scalabilities ≈ 3 s; then 10 s per scheme
/// plus ≈ 0.5 s to stop the discarded runs and collect garbage ≈ 9 × 10.5 s ≈ 95 s; total ≈ 115 s.
/// </summary>
internal static class CyclicCommand
{
    public static Command Create(ProgramCatalog catalog, SchemeRegistry registry, SchemeTimelineCollector? timelines = null, CliSelf? self = null)
    {
        var programs = CommandInput.Programs(
            $"Programs of the workload, comma- or space-separated (default: {string.Join(",", ProgramCatalog.DefaultCyclicWorkload)}). Known: {catalog.Names}.",
            ProgramCatalog.DefaultCyclicWorkload);
        var command = new Command("cyclic",
            "Cyclic multiprogram test (§5.4.1): C^SP of each program alone, then all programs together, each restarted as soon as it ends, "
            + "under each scheme; prints NTT, NP per program and ANTT, MNTT, STP per scheme with 99 % intervals, writes cyclic.json, cyclic.csv, report.md. "
            + "Defaults (9 schemes × 10 s, 3 programs at size medium, C^SP from 5 runs each) take about two minutes on 2 cores.")
        {
            programs,
        };
        var shared = new CyclicOptions(command, Path.Combine("results", "cyclic"), self);
        command.SetAction((parse, ct) =>
        {
            var problems = new List<string>();
            IReadOnlyList<ProgramEntry> entries = CommandInput.ReadPrograms(parse, programs, catalog, problems,
                duplicateHint: " (use 'divcon symmetric' for several instances of one program)");
            return shared.RunAsync(parse, "cyclic", problems, (size, seed) => entries.Select(e => e.Create(size, seed)).ToArray(),
                ["--programs", string.Join(",", entries.Select(e => e.Name))], registry, timelines, ct);
        });
        return command;
    }
}
