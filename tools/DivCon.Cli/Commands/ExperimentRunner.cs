using System.CommandLine;
using DivCon.Cli.Output;
using DivCon.Harness.Cyclic;
using DivCon.Harness.Progress;
using Spectre.Console;

namespace DivCon.Cli.Commands;

/// <summary>
/// What every experiment command does once its options are read: report every problem (one line each, exit 2,
/// nothing written), run the experiment on the harness thread with progress on stderr (live bars on a terminal, a
/// few plain lines per phase otherwise), write its files all or nothing, print its table on stdout.
/// </summary>
internal static class ExperimentRunner
{
    /// <summary>Exit code when a program fails or the run is canceled (no result written).</summary>
    public const int RunFailed = 1;

    /// <summary>
    /// Runs one experiment, messages prefixed with <paramref name="command"/>: every one of <paramref name="problems"/> (then
    /// exit 2), else the <paramref name="notes"/> (e.g. a count over the CPU budget, forced), <paramref name="run"/>, the
    /// <paramref name="files"/> of its result written into <paramref name="outFolder"/> and its <paramref name="table"/> printed.
    /// </summary>
    public static async Task<int> RunAsync<T>(
        ParseResult parse, string command, IReadOnlyList<string> problems, string outFolder,
        Func<IRunProgress, CancellationToken, Task<T>> run, Func<T, IReadOnlyList<(string Name, byte[] Content)>> files, Func<T, string> table,
        CancellationToken cancellationToken, IReadOnlyList<string>? notes = null)
    {
        TextWriter output = parse.InvocationConfiguration.Output;
        TextWriter error = TextWriter.Synchronized(parse.InvocationConfiguration.Error);
        string prefix = $"divcon {command}";
        if (await ReportAsync(parse, prefix, problems))
        {
            return CliApp.UsageError;
        }

        foreach (string note in notes ?? [])
        {
            await error.WriteLineAsync($"{prefix}: note: {note}");
        }

        try
        {
            // Live bars when stderr is this process's terminal, plain lines otherwise.
            bool terminal = ReferenceEquals(parse.InvocationConfiguration.Error, Console.Error) && !Console.IsErrorRedirected
                && !string.Equals(Environment.GetEnvironmentVariable("CI"), "true", StringComparison.OrdinalIgnoreCase);
            Func<IRunProgress, Task<T>> body = progress => HarnessThread.RunAsync(() => run(progress, cancellationToken));
            T result = await (terminal
                ? LiveProgress.RunAsync(AnsiConsole.Create(new AnsiConsoleSettings { Out = new AnsiConsoleOutput(Console.Error) }), body)
                : body(new PlainProgress(error, prefix)));
            IReadOnlyList<string> written = ResultFolder.Write(outFolder, files(result));
            await output.WriteAsync(table(result));
            await error.WriteLineAsync($"{prefix}: wrote {string.Join(", ", written)}");
            return 0;
        }
        catch (Exception e) when (e is ProgramRunException or SchemeSetupException or InvalidOperationException or TimeoutException)
        {
            await error.WriteLineAsync($"{prefix}: {e.Message} No results were written.");
            return RunFailed;
        }
        catch (OperationCanceledException)
        {
            await error.WriteLineAsync($"{prefix}: canceled; no results were written.");
            return RunFailed;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            await error.WriteLineAsync($"{prefix}: could not write the results to '{outFolder}': {e.Message}");
            return RunFailed;
        }
    }

    /// <summary>Prints every problem as one line on the error writer; true when there was any.</summary>
    public static async Task<bool> ReportAsync(ParseResult parse, string prefix, IReadOnlyList<string> problems)
    {
        foreach (string p in problems)
        {
            await parse.InvocationConfiguration.Error.WriteLineAsync($"{prefix}: {p}");
        }

        return problems.Count > 0;
    }
}
