using System.CommandLine;
using System.Text.Json;
using DivCon.Harness.Experiments;
using DivCon.Harness.Plots;

namespace DivCon.Cli.Commands;

/// <summary>
/// <c>divcon plot --from results.json</c>: redraws every figure of a saved result file (cyclic, symmetric,
/// scalability, granularity, phases, factored) with the same code the experiment commands use, into <c>--out</c>
/// (default: the file's folder). Files are written all or nothing.
/// </summary>
internal static class PlotCommand
{
    public static Command Create()
    {
        var from = new Option<string>("--from")
        {
            Description = $"A saved result file; kinds: {string.Join(", ", ResultPlots.Kinds)}.",
        };
        var outOption = new Option<string>("--out")
        {
            Description = "Folder for the figures (default: the folder of --from).",
        };
        var command = new Command("plot", "Redraws the PNG figures (and their .plot.json models) of a saved result file.")
        {
            from,
            outOption,
        };
        command.SetAction(async (parse, ct) =>
        {
            TextWriter output = parse.InvocationConfiguration.Output;
            TextWriter error = parse.InvocationConfiguration.Error;
            var problems = new List<string>();
            string path = parse.GetValue(from) ?? string.Empty;
            IReadOnlyList<NamedFigure> figures = [];
            if (string.IsNullOrWhiteSpace(path))
            {
                problems.Add("--from needs a result file (e.g. results/cyclic/cyclic.json).");
            }
            else if (!File.Exists(path))
            {
                problems.Add($"--from '{path}' does not exist.");
            }
            else
            {
                try
                {
                    figures = ResultPlots.FromJson(await File.ReadAllTextAsync(path, ct));
                    if (figures.Count == 0)
                    {
                        problems.Add($"--from '{path}' holds no data to plot.");
                    }
                }
                catch (JsonException e)
                {
                    problems.Add($"--from '{path}' is not valid JSON: {e.Message}");
                }
                catch (Exception e) when (e is ArgumentException or InvalidOperationException or FormatException)
                {
                    problems.Add($"--from '{path}': {e.Message}");
                }
                catch (Exception e) when (e is IOException or UnauthorizedAccessException)
                {
                    problems.Add($"--from '{path}' cannot be read: {e.Message}");
                }
            }

            string folder = parse.GetValue(outOption) ?? (path.Length > 0 ? Path.GetDirectoryName(Path.GetFullPath(path)) ?? "." : ".");
            if (problems.Count == 0 && Harness.Reporting.ResultFiles.CheckWritable(folder) is { } why)
            {
                problems.Add($"--out: {why}");
            }

            if (problems.Count > 0)
            {
                foreach (string p in problems)
                {
                    await error.WriteLineAsync($"divcon plot: {p}");
                }

                return CliApp.UsageError;
            }

            try
            {
                IReadOnlyList<string> written = ExperimentFiles.Write(folder, ResultPlots.Render(figures));
                await output.WriteLineAsync(string.Join(Environment.NewLine, written));
                return 0;
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                await error.WriteLineAsync($"divcon plot: could not write the figures to '{folder}': {e.Message}");
                return HarnessCommandRunner.RunFailed;
            }
        });
        return command;
    }
}
