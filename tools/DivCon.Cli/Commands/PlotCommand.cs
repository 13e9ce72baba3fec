using System.CommandLine;
using System.Text.Json;
using DivCon.Harness.Plots;
using DivCon.Harness.Reporting;
using DivCon.Reporting.Plotting;

namespace DivCon.Cli.Commands;

/// <summary>
/// <c>divcon plot --from results.json</c>: reads a saved result back into its record and redraws every figure of it
/// with the same code the experiment commands use, or the one figure of a figure model (<c>*.plot.json</c>, e.g. an
/// allocation plot), into <c>--out</c> (default: the file's folder), all or nothing. A file of another kind or an
/// older schema is one line of error and exit code 2.
/// </summary>
internal static class PlotCommand
{
    // A figure model written beside a PNG (e.g. allocation-{scheme}.plot.json, which has no result file of its own).
    private const string FigureSuffix = ".plot.json";

    public static Command Create()
    {
        var from = CommandInput.Declare<string>("--from", $"A saved result file; kinds: {string.Join(", ", ResultKinds.Plotted)}; or a figure model ({FigureSuffix}).");
        var outOption = CommandInput.Declare<string>("--out", "Folder for the figures (default: the folder of --from).");
        var command = new Command("plot", "Redraws the PNG figures (and their .plot.json models) of a saved result file.")
        {
            from,
            outOption,
        };
        command.SetAction(async (parse, ct) =>
        {
            var problems = new List<string>();
            string path = parse.GetValue(from) ?? string.Empty;
            IReadOnlyList<NamedFigure> figures = [];
            if (string.IsNullOrWhiteSpace(path))
            {
                problems.Add("--from needs a result file (e.g. results/cyclic/cyclic.json).");
            }
            else if (Directory.Exists(path))
            {
                problems.Add($"--from '{path}' is a folder; name a result file in it (e.g. cyclic.json) or a figure model (.plot.json).");
            }
            else if (!File.Exists(path))
            {
                problems.Add($"--from '{path}' does not exist.");
            }
            else
            {
                try
                {
                    string json = await File.ReadAllTextAsync(path, ct);
                    figures = path.EndsWith(FigureSuffix, StringComparison.OrdinalIgnoreCase)
                        ? [new NamedFigure(Path.GetFileName(path)[..^FigureSuffix.Length], Figure.FromJson(json))]
                        : ResultKinds.Figures(json);
                    problems.AddIf(figures.Count == 0, $"--from '{path}' holds no data to plot.");
                }
                catch (ResultFileException e)
                {
                    problems.Add($"--from '{path}' is {e.Message}");
                }
                catch (Exception e) when (e is JsonException or ArgumentException or InvalidOperationException or FormatException)
                {
                    problems.Add($"--from '{path}' is not a figure model: {e.Message.Split('\n')[0]}");
                }
                catch (Exception e) when (e is IOException or UnauthorizedAccessException)
                {
                    problems.Add($"--from '{path}' cannot be read: {e.Message}");
                }
            }

            string folder = CommandInput.ReadOut(parse, outOption, problems, path);
            if (await ExperimentRunner.ReportAsync(parse, "divcon plot", problems))
            {
                return CliApp.UsageError;
            }

            try
            {
                IReadOnlyList<string> written = ResultFolder.Write(folder, NamedFigure.Files(figures));
                await parse.InvocationConfiguration.Output.WriteLineAsync(string.Join(Environment.NewLine, written));
                return 0;
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                await parse.InvocationConfiguration.Error.WriteLineAsync($"divcon plot: could not write the figures to '{folder}': {e.Message}");
                return ExperimentRunner.RunFailed;
            }
        });
        return command;
    }
}
