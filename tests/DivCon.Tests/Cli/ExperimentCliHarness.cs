using DivCon.Cli;

namespace DivCon.Tests.Cli;

/// <summary>Runs the CLI in-process with captured output and a bounded wait, in a temporary folder removed afterwards.</summary>
public abstract class ExperimentCliHarness : IDisposable
{
    protected string Root { get; } = Path.Combine(Path.GetTempPath(), "divcon-cli-tests", Guid.NewGuid().ToString("N"));

    public void Dispose()
    {
        if (Directory.Exists(Root))
        {
            Directory.Delete(Root, recursive: true);
        }

        GC.SuppressFinalize(this);
    }

    protected static async Task<(int Code, string Out, string Err)> Run(params string[] args)
    {
        var output = new StringWriter();
        var error = new StringWriter();
        int code = await CliApp.RunAsync(args, output, error).WaitAsync(TimeSpan.FromMinutes(3));
        return (code, output.ToString(), error.ToString());
    }

    /// <summary>Exit 2, exactly the expected number of problem lines (each naming its option), and no output folder.</summary>
    protected void AssertRejected((int Code, string Out, string Err) r, string outDir, params string[] fragments)
    {
        Assert.Equal(CliApp.UsageError, r.Code);
        string[] lines = r.Err.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        Assert.Equal(fragments.Length, lines.Length);
        foreach (string f in fragments)
        {
            Assert.Contains(lines, l => l.Contains(f, StringComparison.Ordinal));
        }

        Assert.DoesNotContain("   at ", r.Err);
        Assert.False(Directory.Exists(outDir), "nothing may be written for bad input");
    }
}
