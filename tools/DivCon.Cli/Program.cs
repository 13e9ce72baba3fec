using DivCon.Cli;
using DivCon.Cli.Commands;

return await CliApp.RunAsync(args, Console.Out, Console.Error, CliSelf.Current());
