/** Why the server refused a password (422 weak_password), listed under the password field. */
export function PasswordReasons({ id, reasons }: { id: string; reasons: string[] }) {
  if (!reasons.length) return null;
  return (
    <div id={id} role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
      <p className="font-medium">Choose a stronger password:</p>
      <ul className="mt-1 list-disc pl-5">
        {reasons.map((reason) => (
          <li key={reason}>{reason}</li>
        ))}
      </ul>
    </div>
  );
}
