using DivCon.Cli;

namespace DivCon.Tests.Cli;

public sealed class CliAppTests
{
    [Fact]
    public async Task Help_ExitsZeroAndDescribesTheTool()
    {
        var output = new StringWriter();
        var error = new StringWriter();

        int code = await CliApp.RunAsync(["--help"], output, error);

        Assert.Equal(0, code);
        Assert.Contains("DivCon", output.ToString(), StringComparison.Ordinal);
        Assert.Equal(string.Empty, error.ToString());
    }

    [Fact]
    public async Task UnknownCommand_PrintsOneLineAndExitsWithUsageError()
    {
        var output = new StringWriter();
        var error = new StringWriter();

        int code = await CliApp.RunAsync(["no-such-command"], output, error);

        Assert.Equal(CliApp.UsageError, code);
        Assert.Contains("no-such-command", error.ToString(), StringComparison.Ordinal);
        Assert.DoesNotContain("   at ", error.ToString(), StringComparison.Ordinal);
    }
}
