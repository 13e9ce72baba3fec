using System.CommandLine;
using System.Text;
using DivCon.Harness.Cyclic;
using DivCon.Harness.Experiments;
using DivCon.Harness.Plots;
using DivCon.Harness.Reporting;
using DivCon.Samples;

namespace DivCon.Cli.Commands;

/// <summary>
/// What <c>scalability</c>, <c>granularity</c> and <c>phases</c> do around their experiment: validate the shared
/// options (every problem on its own stderr line, exit 2, nothing written), run the experiment on the harness thread
/// with progress lines on stderr, then write <c>{kind}.json</c>, <c>{kind}.csv</c> and (with <c>--plots png</c>) each
/// figure's PNG and figure model, all or nothing, and print a table on stdout.
/// </summary>
internal static class ExperimentCommandRunner
{
    /// <summary>What an experiment produced: the two result files and the table for stdout.</summary>
    public sealed record Output(string Json, string Csv, string Table);

    public static async Task<int> RunAsync(
        ParseResult parse,
        ExperimentCommandOptions options,
        string kind,
        List<string> problems,
        Func<ExperimentSettings, Action<string>, CancellationToken, Task<Output>> run,
        CancellationToken cancellationToken)
    {
        TextWriter output = parse.InvocationConfiguration.Output;
        TextWriter error = TextWriter.Synchronized(parse.InvocationConfiguration.Error);
        string prefix = $"divcon {kind}";

        string[] names = HarnessCommandRunner.SplitNames(parse.GetValue(options.Programs));
        string valid = string.Join(", ", SampleCatalog.Names);
        if (names.Length == 0)
        {
            problems.Add($"--programs needs at least one program; valid programs: {valid}.");
        }

        foreach (string name in names.Where(n => !SampleCatalog.Names.Contains(n, StringComparer.OrdinalIgnoreCase)))
        {
            problems.Add($"unknown program '{name}'; valid programs: {valid}.");
        }

        foreach (var dup in names.GroupBy(n => n, StringComparer.OrdinalIgnoreCase).Where(g => g.Count() > 1))
        {
            problems.Add($"program '{dup.Key}' is listed more than once.");
        }

        string sizeText = parse.GetValue(options.Size) ?? string.Empty;
        if (!Enum.TryParse(sizeText, ignoreCase: true, out ProblemSize size) || !Enum.IsDefined(size) || int.TryParse(sizeText, out _))
        {
            problems.Add($"--size '{sizeText}' is not a size; use small, medium or thesis.");
        }

        int runs = parse.GetValue(options.Runs);
        if (runs <= 0)
        {
            problems.Add($"--runs must be at least 1; got {runs}.");
        }

        int warmup = parse.GetValue(options.Warmup);
        if (warmup < 0)
        {
            problems.Add($"--warmup must be 0 or more; got {warmup}.");
        }

        int? cores = parse.GetValue(options.Cores);
        IReadOnlyList<int> affinity = CommandInput.CheckCores(cores, problems);

        bool png = PlotOption.Read(parse, options.Plots, problems);

        string outFolder = parse.GetValue(options.Out) ?? string.Empty;
        CommandInput.CheckOutFolder(outFolder, problems);
        if (await CommandInput.ReportAsync(error, prefix, problems))
        {
            return CliApp.UsageError;
        }

        var settings = new ExperimentSettings(
            names.Select(n => n.ToLowerInvariant()).ToArray(), size, runs, warmup,
            affinity.Take(cores ?? affinity.Count).ToArray(), parse.GetValue(options.Seed), TimeSpan.FromMinutes(10));
        try
        {
            Output result = await HarnessThread.RunAsync(() => run(settings, line => error.WriteLine($"{prefix}: {line}"), cancellationToken));
            var files = new List<(string Name, byte[] Content)>
            {
                ($"{kind}.json", Encoding.UTF8.GetBytes(result.Json)),
                ($"{kind}.csv", Encoding.UTF8.GetBytes(result.Csv)),
            };
            if (png)
            {
                files.AddRange(ResultPlots.Render(ResultPlots.FromJson(result.Json)));
            }

            IReadOnlyList<string> written = ExperimentFiles.Write(outFolder, files);
            await output.WriteAsync(result.Table);
            await error.WriteLineAsync($"{prefix}: wrote {string.Join(", ", written)}");
            return 0;
        }
        catch (ProgramRunException e)
        {
            await error.WriteLineAsync($"{prefix}: {e.Message} No results were written.");
            return HarnessCommandRunner.RunFailed;
        }
        catch (OperationCanceledException)
        {
            await error.WriteLineAsync($"{prefix}: canceled; no results were written.");
            return HarnessCommandRunner.RunFailed;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            await error.WriteLineAsync($"{prefix}: could not write the results to '{outFolder}': {e.Message}");
            return HarnessCommandRunner.RunFailed;
        }
    }
}
