using System.Diagnostics;

namespace DivCon.Skeletons;

// The state of one run, shared by both execution modes: where its tasks go, whether it has stopped, the faults it
// recorded, and its outcome.
//
// Stopping: a run stops at its first fault (Fail) or when the caller's token is canceled (MarkCanceled, from the
// token's registration or from a poll in IsStopped). Both set _stopped, which every node reads before each muscle
// call, and cancel _stop, whose token muscles get as DivConContext.CancellationToken (as Parallel.ForEachAsync cancels
// the token it gives its bodies once one of them fails). _stop is never disposed: it has no timer, and a muscle may
// still hold its token after the run.
//
// Outcome, decided once by Complete (called exactly once by each mode's root, after every muscle call returned):
// faulted with every recorded fault if there is any; else canceled if the run stopped without a result; else the
// result.
public abstract partial class DivConBase<TParam, TResult>
{
    private sealed class Run : TaskCompletionSource<TResult>
    {
        public readonly DivConBase<TParam, TResult> Owner;
        public readonly TaskScheduler Scheduler;
        public readonly TaskCreationOptions CreationOptions;
        public readonly PhaseProfiler? Profiler;

        private readonly CancellationToken _token;       // the caller's
        private readonly CancellationTokenSource _stop = new();
        private readonly CancellationToken _muscleToken; // _stop.Token, read once (CTS.Token checks for disposal)
        private readonly CancellationTokenRegistration _registration;
        private readonly bool _exclusive;
        private readonly Lock _lock = new();

        // 0 while running; 1 once stopped. Written (Volatile) by Fail / MarkCanceled on any thread; read by every node
        // before each muscle call. A node that reads 0 just before another thread stops the run calls one more muscle:
        // harmless, its result is dropped and the run still completes once every call has returned.
        private int _stopped;
        private List<Exception>? _faults; // under _lock; in the order they were recorded

        public Run(
            DivConBase<TParam, TResult> owner, TaskScheduler scheduler, TaskCreationOptions creationOptions, CancellationToken token,
            PhaseProfiler? profiler, bool exclusive)
            : base(TaskCreationOptions.RunContinuationsAsynchronously)
        {
            Owner = owner;
            Scheduler = scheduler;
            CreationOptions = creationOptions;
            Profiler = profiler;
            _token = token;
            _muscleToken = _stop.Token;
            _exclusive = exclusive;
            if (token.CanBeCanceled)
            {
                _registration = token.UnsafeRegister(static state => ((Run)state!).MarkCanceled(), this);
            }
        }

        /// <summary>True when no further muscle call should start (a fault was recorded or the caller's token is canceled).</summary>
        public bool IsStopped => Volatile.Read(ref _stopped) != 0 || (_token.IsCancellationRequested && MarkCanceled());

        public DivConContext ContextAt(int level) => new(level, _muscleToken, Scheduler, CreationOptions);

        /// <summary>Records what a muscle (or the scheduler) threw, and stops the run, unless it is part of the stop.</summary>
        public void Fail(Exception exception)
        {
            if (exception is OperationCanceledException oce)
            {
                // A muscle that observed the run's stop (its context's token, canceled on a fault or on the caller's
                // cancellation) or the caller's canceled token: that is the stop itself, not a new fault.
                if ((oce.CancellationToken == _muscleToken && _muscleToken.IsCancellationRequested)
                    || (oce.CancellationToken == _token && _token.IsCancellationRequested))
                {
                    MarkCanceledIfCallerCanceled();
                    return;
                }
            }

            lock (_lock)
            {
                (_faults ??= []).Add(exception);
            }

            Stop();
        }

        /// <summary>Queues a node's task on the run's scheduler; on failure records the exception (stopping the run) and returns false.</summary>
        public bool TryQueue(Action<object?> body, object state)
        {
            try
            {
                System.Threading.Tasks.Task.Factory.StartNew(body, state, CancellationToken.None, CreationOptions, Scheduler);
                return true;
            }
            catch (Exception e)
            {
                Fail(e);
                return false;
            }
        }

        /// <summary>As <see cref="TryQueue"/>, returning the task, or null on failure.</summary>
        public System.Threading.Tasks.Task? TryStart(Action<object?> body, object state)
        {
            try
            {
                return System.Threading.Tasks.Task.Factory.StartNew(body, state, CancellationToken.None, CreationOptions, Scheduler);
            }
            catch (Exception e)
            {
                Fail(e);
                return null;
            }
        }

        /// <summary>Completes the run's task; called exactly once, by the root, after every muscle call of the run returned.</summary>
        public void Complete(bool hasResult, TResult result)
        {
            // The registration may be running MarkCanceled right now on the canceling thread; Dispose waits for it
            // (unless that is this thread), so no callback of this run runs after its task completes.
            _registration.Dispose();
            if (_exclusive)
            {
                // Before the task completes: the caller's continuation may start the next run at once.
                Owner.ReleaseExclusiveRun();
            }

            List<Exception>? faults;
            lock (_lock)
            {
                faults = _faults;
            }

            if (faults is not null)
            {
                TrySetException(faults);
            }
            else if (!hasResult)
            {
                Debug.Assert(_token.IsCancellationRequested, "A run ends without a result only by a fault or by the caller's token.");
                TrySetCanceled(_token);
            }
            else
            {
                TrySetResult(result);
            }
        }

        private bool MarkCanceled()
        {
            Stop();
            return true;
        }

        private void MarkCanceledIfCallerCanceled()
        {
            if (_token.IsCancellationRequested)
            {
                Stop();
            }
        }

        private void Stop()
        {
            if (Interlocked.Exchange(ref _stopped, 1) != 0)
            {
                return;
            }

            try
            {
                // Runs the callbacks muscles registered on their context's token, on this thread.
                _stop.Cancel();
            }
            catch (AggregateException e)
            {
                // A muscle's cancellation callback threw: a fault of the run like any other.
                lock (_lock)
                {
                    (_faults ??= []).AddRange(e.InnerExceptions);
                }
            }
        }
    }
}
