/** Messages of the validation rules (SPEC §5), English reference. */
export const validation = {
  required: 'This field is required',
  mobile: 'Please enter a valid mobile number',
  email: 'Please enter a valid email address',
  username: 'User name: 3-24 letters, digits or underscores',
  username_same: 'The new user name must differ from the current one',
  password_min: 'Password must be at least 6 characters',
  password_max: 'Password is too long',
  password_mismatch: 'The passwords you entered do not match',
  mail_code: 'The code is 24 letters or digits',
  description: 'Description: 4-50 characters',
  domain: 'Please enter a valid domain name',
  url: 'Please enter a valid http or https URL',
  sub_name: 'Begins with a letter, then letters, digits, underscore or period; 3-50 characters',
  key_name: 'Key name: 4-20 letters, digits, underscores or hyphens',
  otp: 'The one-time password is 6 digits',
  color: 'Please enter a colour such as #1890ff',
};
