using System.Diagnostics;
using System.Runtime.InteropServices;
using System.Text;

namespace DivCon.Tests.Packaging;

/// <summary>
/// Runs the dotnet CLI (pack, build, the built app) as a child process with a hard timeout: on timeout the whole
/// process tree is killed and the test fails, so a stuck restore or build never blocks the run.
/// </summary>
internal static class DotnetCli
{
    /// <summary>The result of one run: exit code and both streams.</summary>
    internal sealed record Result(int ExitCode, string Output, string Error, TimeSpan Elapsed)
    {
        public string Describe(string what) =>
            $"{what} exited with {ExitCode} after {Elapsed.TotalSeconds:F1} s.\n--- stdout ---\n{Output}\n--- stderr ---\n{Error}";
    }

    /// <summary>The dotnet host running these tests (so the child uses the same SDK and runtime), or "dotnet" from PATH.</summary>
    public static string Host
    {
        get
        {
            string? path = Environment.ProcessPath;
            if (path is not null && Path.GetFileNameWithoutExtension(path) == "dotnet")
            {
                return path;
            }

            string root = Path.GetFullPath(Path.Combine(RuntimeEnvironment.GetRuntimeDirectory(), "..", "..", ".."));
            string candidate = Path.Combine(root, OperatingSystem.IsWindows() ? "dotnet.exe" : "dotnet");
            return File.Exists(candidate) ? candidate : "dotnet";
        }
    }

    public static async Task<Result> RunAsync(string workingDirectory, TimeSpan timeout, params string[] arguments)
    {
        var start = new ProcessStartInfo(Host)
        {
            WorkingDirectory = workingDirectory,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (string argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        // `dotnet test` runs this test host with MSBuild variables pointing at its own build; a child build must find
        // its own. No build servers or reused nodes: they would outlive the child and hold its output pipes open.
        foreach (string name in start.Environment.Keys.Where(k => k.StartsWith("MSBUILD", StringComparison.OrdinalIgnoreCase)).ToList())
        {
            start.Environment.Remove(name);
        }

        start.Environment["MSBUILDDISABLENODEREUSE"] = "1";
        start.Environment["DOTNET_CLI_USE_MSBUILD_SERVER"] = "0";
        start.Environment["UseSharedCompilation"] = "false";
        start.Environment["DOTNET_CLI_TELEMETRY_OPTOUT"] = "1";
        start.Environment["DOTNET_NOLOGO"] = "1";
        start.Environment["DOTNET_SKIP_FIRST_TIME_EXPERIENCE"] = "1";

        var stopwatch = Stopwatch.StartNew();
        using var process = Process.Start(start) ?? throw new InvalidOperationException($"Could not start {Host}.");
        var output = new StringBuilder();
        var error = new StringBuilder();
        Task readOut = Pump(process.StandardOutput, output);
        Task readError = Pump(process.StandardError, error);
        using var cancel = new CancellationTokenSource(timeout);
        try
        {
            await process.WaitForExitAsync(cancel.Token);
            // The streams end when the process (and anything it started) closes them; bounded all the same.
            await Task.WhenAll(readOut, readError).WaitAsync(TimeSpan.FromSeconds(30));
        }
        catch (Exception e) when (e is OperationCanceledException or TimeoutException)
        {
            process.Kill(entireProcessTree: true);
            throw new TimeoutException(
                $"dotnet {string.Join(' ', arguments)} did not finish within {timeout.TotalSeconds:F0} s; killed.\n--- stdout ---\n{Snapshot(output)}\n--- stderr ---\n{Snapshot(error)}");
        }

        return new Result(process.ExitCode, Snapshot(output), Snapshot(error), stopwatch.Elapsed);
    }

    private static async Task Pump(StreamReader reader, StringBuilder into)
    {
        char[] buffer = new char[4096];
        int read;
        while ((read = await reader.ReadAsync(buffer)) > 0)
        {
            lock (into)
            {
                into.Append(buffer, 0, read);
            }
        }
    }

    private static string Snapshot(StringBuilder sb)
    {
        lock (sb)
        {
            return sb.ToString();
        }
    }
}
