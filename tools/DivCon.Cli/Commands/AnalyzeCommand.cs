using System.CommandLine;
using DivCon.Harness.Cyclic;
using DivCon.Harness.Reporting;

namespace DivCon.Cli.Commands;

/// <summary>
/// <c>divcon analyze --from DIR</c>: reads a saved <c>cyclic.json</c> or <c>symmetric.json</c> (or several, of the same
/// configuration, whose invocations are then pooled in the order given) and recomputes every derived number from the
/// raw run times it holds (<see cref="CyclicResults.Reanalyze"/>, over <see cref="CyclicResults.Build"/>): the same function a run uses, so a file analysed by the
/// build that made it comes out identical. <c>--baseline</c> and <c>--detect</c> change the comparisons and the planning
/// figure. Writes the JSON, CSV, report and figures into <c>--out</c> (default: the first file's folder) and prints the table.
/// </summary>
internal static class AnalyzeCommand
{
    public static Command Create()
    {
        var from = CommandInput.List("--from",
            "A folder holding cyclic.json or symmetric.json, or such a file; give several (same configuration) to pool their invocations.");
        var baseline = CommandInput.Declare<string?>("--baseline", "Compare every scheme against this one only, instead of every pair (default: as the file says).");
        var detect = CommandInput.Declare<string?>("--detect", "The relative difference the planning figure is for, e.g. 5% (default: as the file says).");
        var outOption = CommandInput.Declare<string>("--out", "Folder for the recomputed files (default: the folder of the first --from).");
        var plots = CommandInput.Plots();
        var command = new Command("analyze",
            "Recomputes every metric, interval and comparison of a cyclic or symmetric result from the raw run times it stores; pools several results' invocations.")
        {
            from,
            baseline,
            detect,
            outOption,
            plots,
        };
        command.SetAction(async (parse, ct) =>
        {
            var problems = new List<string>();
            string[] paths = CommandInput.SplitNames(parse.GetValue(from));
            var results = new List<CyclicResult>();
            problems.AddIf(paths.Length == 0, "--from needs a folder or result file (e.g. results/cyclic).");

            foreach (string p in paths)
            {
                string file = Directory.Exists(p) ? FindResult(p) ?? Path.Combine(p, "cyclic.json") : p;
                if (!File.Exists(file))
                {
                    problems.Add($"--from '{p}' holds no cyclic.json or symmetric.json.");
                    continue;
                }

                try
                {
                    results.Add(ResultKinds.Cyclic.Read(await File.ReadAllTextAsync(file, ct)));
                }
                catch (ResultFileException e)
                {
                    string hint = ResultJson.Header(await File.ReadAllTextAsync(file, ct)).SchemaVersion is > 0 and < ResultFile.CurrentSchemaVersion
                        ? " (files before version 3 keep no raw multiprogram run times, so they cannot be recomputed)"
                        : string.Empty;
                    problems.Add($"--from '{file}' is {e.Message}{hint}");
                }
                catch (Exception e) when (e is IOException or UnauthorizedAccessException)
                {
                    problems.Add($"--from '{file}' cannot be read: {e.Message}");
                }
            }

            for (int k = 1; k < results.Count; k++)
            {
                problems.AddIf(!ProcessInvocationLauncher.SameConfiguration(results[0].Configuration, results[k].Configuration), $"--from '{paths[k]}' ran another configuration than '{paths[0]}' (programs, schemes, size, duration, C^SP settings, processors, seed); only results of one configuration pool.");
            }

            AnalysisOptions? options = results.Count > 0 ? results[0].Analysis : null;
            if (options is not null && parse.GetValue(baseline) is { } b)
            {
                string? name = results[0].Configuration.Schemes.FirstOrDefault(s => string.Equals(s, b, StringComparison.OrdinalIgnoreCase));
                problems.AddIf(name is null, $"--baseline '{b}' is not one of the schemes in the file ({string.Join(", ", results[0].Configuration.Schemes)}).");

                options = options with { Baseline = name };
            }

            if (options is not null && parse.GetValue(detect) is { } d && CommandInput.ReadPercent(d, detect.Name, problems) is { } fraction)
            {
                options = options with { Detect = fraction };
            }

            bool png = CommandInput.ReadPlots(parse, plots, problems);
            string folder = CommandInput.ReadOut(parse, outOption, problems,
                paths.Length == 0 ? string.Empty : Directory.Exists(paths[0]) ? Path.Combine(paths[0], "x") : paths[0]);
            return await ExperimentRunner.RunAsync(parse, "analyze", problems, folder,
                (progress, _) =>
                {
                    CyclicResult result = CyclicResults.Reanalyze(results, options);
                    progress.Line($"{CyclicResults.CountText(result.Invocations.Count)} from {results.Count} file{(results.Count == 1 ? string.Empty : "s")}");
                    return Task.FromResult(result);
                },
                result => ResultKinds.Cyclic.Files(result, png),
                result => ResultKinds.Cyclic.Table(result) + CyclicOptions.ScalabilityNote(result),
                ct);
        });
        return command;
    }

    private static string? FindResult(string folder) =>
        new[] { "cyclic.json", "symmetric.json" }.Select(n => Path.Combine(folder, n)).FirstOrDefault(File.Exists);
}
