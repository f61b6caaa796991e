// E-mail and password, then the authenticator code when the account has
// two-step verification (envelope code 203). Errors show the server's message.
import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent, type ReactNode } from 'react';
import { ApiError } from '../api/client';
import { signIn, signInSecondFactor } from '../api/session';
import type { User } from '../api/generated/schema';
import { AlertIcon } from './icons';

function messageOf(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  return 'Something went wrong. Please try again.';
}

export interface SignInFormProps {
  onSignedIn(user: User): void;
  heading?: ReactNode;
  defaultEmail?: string;
}

export function SignInForm({ onSignedIn, heading, defaultEmail = '' }: SignInFormProps) {
  const [email, setEmail] = useState(defaultEmail);
  const [password, setPassword] = useState('');
  const [otp, setOtp] = useState('');
  const [sessionId, setSessionId] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submitPassword = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const result = await signIn(email.trim(), password);
      if (result.kind === 'second-factor') {
        setSessionId(result.sessionId);
        setPassword('');
      } else {
        onSignedIn(result.user);
      }
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  const submitOtp = async (event: FormEvent) => {
    event.preventDefault();
    if (!sessionId) return;
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await signInSecondFactor(sessionId, otp.trim()));
    } catch (err) {
      setError(messageOf(err));
      setOtp('');
    } finally {
      setBusy(false);
    }
  };

  const errorAlert = error && (
    <Alert color="red" variant="light" icon={<AlertIcon size={18} />} role="alert" title="Could not sign in">
      {error}
    </Alert>
  );

  if (sessionId) {
    return (
      <form onSubmit={submitOtp} aria-label="Two-step verification">
        <Stack gap="md">
          <div>
            <Text fw={700} fz="lg">
              Two-step verification
            </Text>
            <Text size="sm" c="dimmed">
              Enter the 6-digit code from your authenticator app.
            </Text>
          </div>
          {errorAlert}
          <TextInput
            label="Verification code"
            value={otp}
            onChange={(e) => setOtp(e.currentTarget.value.replace(/\D/g, '').slice(0, 6))}
            inputMode="numeric"
            autoComplete="one-time-code"
            placeholder="123456"
            required
            withAsterisk={false}
            autoFocus
            styles={{ input: { letterSpacing: '0.3em', fontVariantNumeric: 'tabular-nums' } }}
          />
          <Button type="submit" loading={busy} disabled={otp.length !== 6} fullWidth>
            Verify
          </Button>
          <Anchor
            component="button"
            type="button"
            size="sm"
            ta="center"
            onClick={() => {
              setSessionId(null);
              setOtp('');
              setError(null);
            }}
          >
            Use a different account
          </Anchor>
        </Stack>
      </form>
    );
  }

  return (
    <form onSubmit={submitPassword} aria-label="Sign in">
      <Stack gap="md">
        {heading}
        {errorAlert}
        <TextInput
          label="E-mail"
          type="email"
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
          autoComplete="username"
          required
          withAsterisk={false}
          autoFocus={!defaultEmail}
        />
        <PasswordInput
          label="Password"
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          autoComplete="current-password"
          required
          withAsterisk={false}
          autoFocus={Boolean(defaultEmail)}
        />
        <Button type="submit" loading={busy} fullWidth>
          Sign in
        </Button>
      </Stack>
    </form>
  );
}
